/** Step 4(b): a judge that may promote or demote what the keyword pass found. */
import { matchedKeywords } from "./keywords";

export type RelevanceLabel = "relevant" | "maybe" | "irrelevant";

export interface JudgeItem {
  /** docs-relative path shown in the pack, e.g. `docs/architecture/_index.md`. */
  path: string;
  name: string;
  description: string;
  /** Prompt tokens found in the description by the keyword pass. */
  matched: string[];
  /** The first 30 lines of the section's own _index.md (what a judge may read), or "". */
  indexHead: string;
}

export interface RelevanceJudge {
  readonly name: string;
  judge(prompt: string, tokens: string[], items: JudgeItem[]): Promise<RelevanceLabel[]> | RelevanceLabel[];
}

/** Shared stem of at least five letters: "deploying" ~ "deployment", "authentication" ~ "authenticated". */
function stemOverlap(tokens: string[], text: string): boolean {
  const words = text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length >= 5);
  return tokens.some((t) => t.length >= 5 && words.some((w) => w.slice(0, 5) === t.slice(0, 5)));
}

/**
 * The default judge: deterministic and offline. A keyword hit in the description is
 * relevant; with none, prompt words in the first 30 lines of the section's index (its
 * children's hooks) promote it to relevant, and a shared word stem makes it "maybe"
 * (noted, not walked); anything else is irrelevant.
 */
export const keywordJudge: RelevanceJudge = {
  name: "keyword judge",
  judge(_prompt, tokens, items) {
    return items.map((it) => {
      if (it.matched.length > 0) return "relevant";
      if (matchedKeywords(tokens, it.indexHead).length > 0) return "relevant";
      return stemOverlap(tokens, `${it.name} ${it.description}`) ? "maybe" : "irrelevant";
    });
  },
};
