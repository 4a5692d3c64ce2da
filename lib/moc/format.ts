import { countTokens } from "../core/tokens";
import { MAX_PACK_TOKENS, NOTE_BUDGET_EXCEEDED, NOTE_FRESH_KB } from "./limits";
import type { Walk } from "./types";

export const PACK_MARKER = "<!-- context-loader:v1 -->";
export const NOTE_TRIMMED = `Pack trimmed to stay within ${MAX_PACK_TOKENS} tokens.`;
/** Notes the seed prescribes; trimming never removes them. */
const FIXED_NOTES = new Set([NOTE_FRESH_KB, NOTE_BUDGET_EXCEEDED, NOTE_TRIMMED]);

const list = (xs: string[]) => (xs.length ? xs : ["- (none)"]);

function capped(xs: string[], keep: number | undefined): string[] {
  if (keep === undefined || keep >= xs.length) return xs;
  return [...xs.slice(0, keep), `- … ${xs.length - keep} more, left out to fit the pack budget`];
}

/** The sections the pack lists: those walked, or the root-level ones after the budget fallback. */
export function listedSections(walk: Walk): Walk["sections"] {
  return walk.budgetExceeded ? walk.sections.filter((s) => s.depth === 1 && s.label === "relevant") : walk.sections.filter((s) => s.walked);
}

/** The pack in the seed's Output contract: trivial, error, or the full walk. */
export function formatPack(walk: Walk): string {
  if (walk.trivial) return `${PACK_MARKER}\n# Context pack\n\nTrivial: yes\nReason: ${walk.trivial.reason}\n`;
  if (walk.error) return `${PACK_MARKER}\n# Context pack\n\nError: ${walk.error}\n`;
  const sections = listedSections(walk).map((s) => `- \`${s.path}\` — ${s.why}`);
  const read = walk.files.filter((f) => f.status === "read" && f.excerpts.length > 0);
  const files = read.map((f) => [`### \`${f.path}\``, f.excerpts.map((e) => e.lines.join("\n")).join("\n…\n")].join("\n"));
  const noted = walk.files.filter((f) => f.status === "noted").map((f) => `- \`${f.path}\` — ${f.reason}`);
  return [
    PACK_MARKER,
    "# Context pack",
    "",
    "Trivial: no",
    `Prompt summary: ${walk.promptSummary}`,
    "",
    "## Relevant sections walked",
    ...list(capped(sections, walk.omit?.sections)),
    "",
    "## Files with excerpts",
    ...(files.length ? [files.join("\n\n")] : ["- (none)"]),
    "",
    "## Files noted but not read",
    ...list(capped(noted, walk.omit?.noted)),
    "",
    "## Notes",
    ...list(
      capped(
        walk.notes.map((n) => `- ${n}`),
        walk.omit?.notes,
      ),
    ),
    "",
  ].join("\n");
}

/**
 * Formats the pack and, when it is over the token cap, trims it until it fits: second
 * excerpts first, then whole excerpts (lowest-ranked file first), then the tails of the
 * noted-files, section and note lists. The seed's own notes always stay.
 */
export function formatPackFitting(walk: Walk): { text: string; tokens: number } {
  let text = formatPack(walk);
  let tokens = countTokens(text);
  if (tokens <= MAX_PACK_TOKENS) return { text, tokens };
  walk.notes = [...walk.notes.filter((n) => FIXED_NOTES.has(n)), ...walk.notes.filter((n) => !FIXED_NOTES.has(n))];
  if (!walk.notes.includes(NOTE_TRIMMED)) walk.notes.unshift(NOTE_TRIMMED);
  const refit = () => {
    text = formatPack(walk);
    tokens = countTokens(text);
    return tokens > MAX_PACK_TOKENS;
  };
  if (!refit()) return { text, tokens };
  const read = walk.files.filter((f) => f.status === "read");
  for (let i = read.length - 1; i >= 0; i--) {
    while (read[i]!.excerpts.length > 1) {
      read[i]!.excerpts.pop();
      if (!refit()) return { text, tokens };
    }
  }
  for (let i = read.length - 1; i >= 0; i--) {
    const f = read[i]!;
    f.excerpts = [];
    f.status = "noted";
    f.reason = "read, but its excerpt did not fit the pack's token budget";
    if (!refit()) return { text, tokens };
  }
  walk.omit = { sections: undefined, noted: undefined, notes: undefined };
  const shrink = (key: "noted" | "sections" | "notes", total: number, floor: number) => {
    for (let keep = total - 1; keep >= floor; keep = Math.min(keep - 1, Math.floor(keep * 0.8))) {
      walk.omit![key] = keep;
      if (!refit()) return true;
    }
    return false;
  };
  const notedCount = walk.files.filter((f) => f.status === "noted").length;
  if (shrink("noted", notedCount, 0)) return { text, tokens };
  if (shrink("sections", listedSections(walk).length, 0)) return { text, tokens };
  const fixed = walk.notes.filter((n) => FIXED_NOTES.has(n)).length;
  shrink("notes", walk.notes.length, fixed);
  return { text, tokens };
}
