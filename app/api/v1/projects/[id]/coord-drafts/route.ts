import { coordDraft, saveCoordDraft } from "@/lib/memory/desk";
import { memoryRoutes } from "@/lib/memory/schemas";
import { handle } from "../../../_lib/handler";

export const dynamic = "force-dynamic";

/** A bounded task packet (`?kind=brief&task=`) or session primer (`?kind=primer`) drafted from .coord/, with its checks. */
export const GET = handle(memoryRoutes.draft, async ({ params, query }) => coordDraft(params.id, query));

/** Writes the text to .coord/context_NNN.md or .coord/session_primer.md; 422 while a check fails. */
export const POST = handle(memoryRoutes.saveDraft, async ({ params, body }) => saveCoordDraft(params.id, body));
