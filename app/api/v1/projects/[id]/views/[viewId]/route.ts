import { viewRoutes } from "@/lib/views/schemas";
import { removeView } from "@/lib/views/service";
import { handle } from "../../../../_lib/handler";

export const dynamic = "force-dynamic";

export const DELETE = handle(viewRoutes.remove, async ({ params: { id, viewId } }) => {
  await removeView(id, viewId);
});
