import { viewRoutes } from "@/lib/views/schemas";
import { savedViews, saveView } from "@/lib/views/service";
import { handle } from "../../../_lib/handler";

export const dynamic = "force-dynamic";

/** The project's saved views, optionally of one surface. */
export const GET = handle(viewRoutes.list, async ({ params: { id }, query }) => ({ views: await savedViews(id, query.surface) }));

/** Saves (or renames over) a view: `{surface, name, path}`. */
export const POST = handle(viewRoutes.save, async ({ params: { id }, body }) => ({ view: await saveView(id, body) }));
