import { TASK_TOKENS_MAX } from "./limits";

export type TaskTokensParse = { ok: true; value: number | null } | { ok: false; error: string };

/**
 * A task size as typed (the editor's field, the CLI's --task-tokens): blank is none (the
 * packet's own estimate is used), otherwise plain digits only; "3e2" or "300.5" is a typo,
 * not a size, and is refused rather than read as something else.
 */
export function parseTaskTokens(text: string): TaskTokensParse {
  const t = text.trim();
  if (t === "") return { ok: true, value: null };
  const n = /^\d{1,9}$/.test(t) ? Number(t) : NaN;
  if (n <= TASK_TOKENS_MAX) return { ok: true, value: n };
  return { ok: false, error: `The task size is a whole number of tokens from 0 to ${TASK_TOKENS_MAX.toLocaleString("en")}, not ${JSON.stringify(text)}.` };
}
