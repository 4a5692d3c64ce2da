/** Step 1, the triviality gate: the seed's three rules, nothing more. */
import { isMetaQuestion } from "./meta-question";

export const ACTION_KEYWORDS = ["add", "fix", "build", "change", "refactor", "implement", "design", "plan", "debug", "investigate", "review", "explain", "why", "how", "can", "ship", "merge", "deploy"] as const;

/** An action keyword as a word, with its common inflections (fixes, fixing, planned, changing). */
const ACTION_WORD = new RegExp(`^(?:${ACTION_KEYWORDS.map((k) => (k.endsWith("e") ? `${k}(?:s|d|r|rs)?|${k.slice(0, -1)}ing` : `${k}(?:s|es|ed|d|ing|[a-z]ed|[a-z]ing|er|ers)?`)).join("|")})$`);

export const ACKNOWLEDGMENT = /^(thanks|ok|continue|yes|no|sure|got it)\.?$/i;

export type Triviality = { trivial: false } | { trivial: true; reason: string };

function words(prompt: string): string[] {
  return prompt.trim().split(/\s+/).filter(Boolean);
}

export function checkTriviality(prompt: string): Triviality {
  const trimmed = prompt.trim();
  // The reason quotes the prompt on the pack's one Reason line.
  const quoted = trimmed.replace(/\s+/g, " ");
  if (ACKNOWLEDGMENT.test(trimmed)) {
    return { trivial: true, reason: `prompt is a pure acknowledgment ("${quoted}")` };
  }
  const w = words(trimmed);
  const lower = w.map((x) => x.toLowerCase().replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ""));
  const action = lower.find((x) => ACTION_WORD.test(x));
  if (isMetaQuestion(quoted)) {
    return { trivial: true, reason: `prompt is a meta-question about the agent ("${quoted.slice(0, 80)}")` };
  }
  if (w.length <= 5 && !action) {
    return { trivial: true, reason: `prompt is ${w.length} word${w.length === 1 ? "" : "s"} with no action keyword` };
  }
  return { trivial: false };
}
