/**
 * Saved views: a name for a filtered view's URL (inventory, findings, proposals, search), per
 * project. The URL is stored as a path inside the Workbench, never a full address.
 */
import { z } from "zod";
import { defineRoute, isoTime, pathId, projectParams } from "../core/contract";
import { VIEW_SURFACES, type SavedViewDto } from "../db/dto";

// Stored in SavedView.surface: lib/db/dto.ts defines them and the row.
export { type SavedViewDto, VIEW_SURFACES, type ViewSurface } from "../db/dto";

/** A project keeps at most this many saved views per surface. */
export const MAX_VIEWS_PER_SURFACE = 50;

export const savedViewInput = z.object({
  surface: z.enum(VIEW_SURFACES).describe("which filtered view this is"),
  name: z.string().trim().min(1, "give the view a name").max(80, "at most 80 characters").describe("what the view is called in lists and the command palette"),
  path: z
    .string()
    .max(2000)
    .regex(/^\/(?!\/)[^\s\\]*$/, "a path inside the Workbench, starting with one /")
    .describe("the view's path and query string, e.g. /projects/<id>/topics?status=in_progress"),
});
export type SavedViewInput = z.input<typeof savedViewInput>;
// ---------------------------------------------------------------------------
// The saved-views API

export const savedViewSchema = z
  .object({
    id: z.string().describe("view id"),
    projectId: z.string().describe("project id"),
    surface: z.enum(VIEW_SURFACES).describe("which filtered view"),
    name: z.string().describe("its name"),
    path: z.string().describe("the view's path and query string"),
    createdAt: isoTime("when it was saved"),
  })
  .describe("a saved view");

const sameView: [z.infer<typeof savedViewSchema>] extends [SavedViewDto] ? ([SavedViewDto] extends [z.infer<typeof savedViewSchema>] ? true : false) : false = true;
void sameView;

export const viewRoutes = {
  list: defineRoute({
    id: "listViews",
    method: "GET",
    path: "/api/v1/projects/{id}/views",
    tag: "views",
    summary: "The project's saved views, optionally of one surface",
    access: { kind: "project", role: "viewer" },
    params: projectParams,
    query: z.object({ surface: z.enum(VIEW_SURFACES).optional().describe("only views of this surface") }),
    response: { status: 200, description: "the views", json: z.object({ views: z.array(savedViewSchema).describe("the saved views, by name") }) },
  }),
  save: defineRoute({
    id: "saveView",
    method: "POST",
    path: "/api/v1/projects/{id}/views",
    tag: "views",
    summary: "Save (or rename over) a view",
    access: { kind: "project", role: "editor" },
    params: projectParams,
    body: savedViewInput,
    response: { status: 201, description: "the view", json: z.object({ view: savedViewSchema }) },
    errors: ["CONFLICT"],
  }),
  remove: defineRoute({
    id: "removeView",
    method: "DELETE",
    path: "/api/v1/projects/{id}/views/{viewId}",
    tag: "views",
    summary: "Delete a saved view",
    access: { kind: "project", role: "editor" },
    params: projectParams.extend({ viewId: pathId("saved view id") }),
    response: { status: 204, description: "deleted" },
  }),
};
