import { kbRoutes } from "@/lib/moc/schemas";
import { loaderForProject } from "@/lib/moc/service";
import { handle } from "../../../_lib/handler";

export const dynamic = "force-dynamic";

/** The context-loader pack for a prompt, with the walk that produced it. */
export const POST = handle(kbRoutes.loader, async ({ params, body }) => loaderForProject(params.id, body));
