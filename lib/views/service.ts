import { WorkbenchError } from "../core/errors";
import type { ProjectHeadDto } from "../db/dto";
import { getProjectHead } from "../db/repositories/projects";
import { countSavedViews, deleteSavedView, listSavedViews, upsertSavedView } from "../db/repositories/saved-views";
import { MAX_VIEWS_PER_SURFACE, savedViewInput, type SavedViewDto, type SavedViewInput, type ViewSurface } from "./schemas";

/** Where each surface lives, so a saved view can only point at its own project's view. */
function belongsTo(projectId: string, surface: ViewSurface, path: string): boolean {
  const url = new URL(path, "http://workbench.invalid");
  const base = `/projects/${projectId}`;
  switch (surface) {
    case "inventory":
      return url.pathname === `${base}/topics`;
    case "findings":
      return url.pathname.startsWith(`${base}/runs/`);
    case "proposals":
      return url.pathname === `${base}/memory`;
    case "search":
      return url.pathname === "/search" && url.searchParams.get("project") === projectId;
  }
}

export async function saveView(projectId: string, raw: SavedViewInput): Promise<SavedViewDto> {
  const input = savedViewInput.parse(raw);
  await getProjectHead(projectId);
  if (!belongsTo(projectId, input.surface, input.path)) {
    throw new WorkbenchError("INVALID_INPUT", `path: not a ${input.surface} view of this project`);
  }
  const existing = await listSavedViews(projectId, input.surface);
  if (!existing.some((v) => v.name === input.name) && (await countSavedViews(projectId, input.surface)) >= MAX_VIEWS_PER_SURFACE) {
    throw new WorkbenchError("CONFLICT", `A project keeps at most ${MAX_VIEWS_PER_SURFACE} saved ${input.surface} views; delete one first.`);
  }
  return upsertSavedView(projectId, input);
}

/** A project's saved views; given the project's head (a page has read it already), no second read to check it exists. */
export async function savedViews(project: string | ProjectHeadDto, surface?: ViewSurface): Promise<SavedViewDto[]> {
  const { id } = typeof project === "string" ? await getProjectHead(project) : project;
  return listSavedViews(id, surface);
}

export async function removeView(projectId: string, viewId: string): Promise<void> {
  await deleteSavedView(projectId, viewId);
}
