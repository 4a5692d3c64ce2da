import { notFound } from "next/navigation";
import { pageProjectRole } from "@/app/_lib/page-access";
import type { Role } from "@/lib/auth/roles";
import { isWorkbenchError } from "@/lib/core/errors";
import type { ProjectDto, ProjectHeadDto } from "@/lib/projects/types";
import { getProject, getProjectHead } from "@/lib/projects/service";

async function orNotFound<T>(load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (e) {
    if (isWorkbenchError(e) && e.code === "NOT_FOUND") notFound();
    throw e;
  }
}

/**
 * The project of a /projects/[id] page, or the not-found page when it does not exist or the
 * viewer may not see it (team mode: signed out goes to sign-in first). Its name, root and
 * layouts only, in one query: the counts and latest job cost three more.
 */
export async function loadProjectOr404(id: string, need: Role = "viewer"): Promise<ProjectHeadDto> {
  await pageProjectRole(id, need);
  return orNotFound(() => getProjectHead(id));
}

/** The same, with the topic and warning counts and the latest index job (the overview page). */
export async function loadProjectDetailsOr404(id: string, need: Role = "viewer"): Promise<ProjectDto> {
  await pageProjectRole(id, need);
  return orNotFound(() => getProject(id));
}
