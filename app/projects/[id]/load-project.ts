import { notFound } from "next/navigation";
import { pageProjectRole } from "@/app/_lib/page-access";
import type { Role } from "@/lib/auth/roles";
import { isWorkbenchError } from "@/lib/core/errors";
import type { ProjectDto } from "@/lib/db/dto";
import { getProject } from "@/lib/db/repositories/projects";

/**
 * The project of a /projects/[id] page, or the not-found page when it does not exist or the
 * viewer may not see it (team mode: signed out goes to sign-in first).
 */
export async function loadProjectOr404(id: string, need: Role = "viewer"): Promise<ProjectDto> {
  await pageProjectRole(id, need);
  try {
    return await getProject(id);
  } catch (e) {
    if (isWorkbenchError(e) && e.code === "NOT_FOUND") notFound();
    throw e;
  }
}
