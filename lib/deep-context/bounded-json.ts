/**
 * JSON from a packet file, its nesting bounded before it is parsed. Parsing itself copes
 * with any depth, but what the readers do next (String() of a field, JSON.stringify, a
 * schema, a renderer) recurses once per level: a value nested thousands deep would overflow
 * the stack there and take the whole reduce, view or index job down with it.
 */
import { MAX_NESTING } from "../core/fs/limits";
import { jsonNestingDepth } from "../core/fs/nesting";

export const TOO_DEEP_REASON = `nested more than ${MAX_NESTING} levels deep; not read`;

export type BoundedJson = { ok: true; value: unknown } | { ok: false; tooDeep: boolean; error: string };

/** True when `text` nests `[`/`{` deeper than MAX_NESTING (outside strings). */
export function tooDeep(text: string): boolean {
  return jsonNestingDepth(text, MAX_NESTING) > MAX_NESTING;
}

/** JSON.parse of `text` unless it nests deeper than MAX_NESTING; the error is JSON.parse's message. */
export function parseBoundedJson(text: string): BoundedJson {
  if (tooDeep(text)) return { ok: false, tooDeep: true, error: TOO_DEEP_REASON };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (e) {
    return { ok: false, tooDeep: false, error: e instanceof Error ? e.message : String(e) };
  }
}
