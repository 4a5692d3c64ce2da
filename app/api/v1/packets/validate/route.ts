import { packetRoutes } from "@/lib/packets/schemas";
import { validatePacketText } from "@/lib/packets/service";
import { handle } from "../../_lib/handler";

export const dynamic = "force-dynamic";

/**
 * The context-pack checks on markdown that is not stored (`{markdown, taskTokens?}`): the
 * same result as `workbench pack validate --json` and the MCP tool `validate_packet`. It
 * reads no project, so any signed-in caller may use it.
 */
export const POST = handle(packetRoutes.validate, async ({ body }) => validatePacketText(body));
