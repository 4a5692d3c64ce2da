import { NextResponse } from "next/server";
import { validatePacketInput } from "@/lib/packets/schemas";
import { validatePacketText } from "@/lib/packets/service";
import { readJson, route } from "../../_lib/respond";

export const dynamic = "force-dynamic";

/**
 * The context-pack checks on markdown that is not stored (`{markdown, taskTokens?}`): the
 * same result as `workbench pack validate --json` and the MCP tool `validate_packet`. It
 * reads no project, so any signed-in caller may use it.
 */
export const POST = route(async (req) => NextResponse.json(validatePacketText(await readJson(req, validatePacketInput))));
