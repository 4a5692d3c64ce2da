import { notFound } from "next/navigation";
import { ZodError } from "zod";
import { isWorkbenchError } from "@/lib/core/errors";
import { coordDraft } from "@/lib/memory/desk";

type SearchParams = Record<string, string | string[] | undefined>;

/**
 * What the draft page shows, read from its query. A task with no checkpoint, or a parameter
 * the API answers 400 for (a task id past its length limit), is the not-found page: pages have
 * no 400, and neither names anything there is to draft.
 */
export async function draftOr404(projectId: string, sp: SearchParams) {
  const kind = sp.kind === "primer" ? "primer" : "brief";
  const task = typeof sp.task === "string" ? sp.task : undefined;
  try {
    return { kind, task, draft: await coordDraft(projectId, { kind, task }) } as const;
  } catch (e) {
    if (e instanceof ZodError || (isWorkbenchError(e) && (e.code === "NOT_FOUND" || e.code === "INVALID_INPUT"))) notFound();
    throw e;
  }
}
