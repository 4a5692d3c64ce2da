/**
 * Saved views: a name for a filtered view's URL (inventory, findings, proposals, search), per
 * project. The URL is stored as a path inside the Workbench, never a full address.
 */
import { z } from "zod";
import { VIEW_SURFACES } from "../db/dto";

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
