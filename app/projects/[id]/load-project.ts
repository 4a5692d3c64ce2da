import { notFound } from "next/navigation";
import { isWorkbenchError } from "@/lib/core/errors";
import type { ProjectDto } from "@/lib/db/dto";
import { getProject } from "@/lib/db/repositories/projects";

/** The project of a /projects/[id] page, or the not-found page when it does not exist. */
export async function loadProjectOr404(id: string): Promise<ProjectDto> {
  try {
    return await getProject(id);
  } catch (e) {
    if (isWorkbenchError(e) && e.code === "NOT_FOUND") notFound();
    throw e;
  }
}
