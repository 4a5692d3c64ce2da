import { breakCoordLock } from "@/lib/memory/desk";
import { memoryRoutes } from "@/lib/memory/schemas";
import { handle } from "../../../../../_lib/handler";

export const dynamic = "force-dynamic";

/** Removes a .coord lock left by a crash, only when this host confirms its owner process is gone; approvers only. */
export const POST = handle(memoryRoutes.breakLock, async ({ params, body }) => breakCoordLock(params.id, body));
