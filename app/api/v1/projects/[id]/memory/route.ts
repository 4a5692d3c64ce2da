import { memoryDesk } from "@/lib/memory/desk";
import { memoryRoutes } from "@/lib/memory/schemas";
import { handle } from "../../../_lib/handler";

export const dynamic = "force-dynamic";

/** The project's .coord/: proposals with evidence and signature checks, memory view, checkpoints, policies, per-file errors, and which key ids can sign. */
export const GET = handle(memoryRoutes.desk, async ({ params }) => memoryDesk(params.id));
