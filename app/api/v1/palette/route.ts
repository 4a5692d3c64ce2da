import { visibleProjectIds } from "@/lib/auth/access";
import { jumpTargets } from "@/lib/search/service";
import { searchRoutes } from "@/lib/search/schemas";
import { handle } from "../_lib/handler";

export const dynamic = "force-dynamic";

/** What the command palette can jump to: projects, topics, runs, packets and saved views. */
export const GET = handle(searchRoutes.palette, async ({ principal }) => jumpTargets(await visibleProjectIds(principal)));
