import { kbRoutes } from "@/lib/moc/schemas";
import { kbHealthForProject } from "@/lib/moc/service";
import { handle } from "../../../_lib/handler";

export const dynamic = "force-dynamic";

/** The docs/ MOC tree and its health: broken links, oversize indexes, unreachable files. */
export const GET = handle(kbRoutes.health, async ({ params }) => ({ kb: await kbHealthForProject(params.id) }));
