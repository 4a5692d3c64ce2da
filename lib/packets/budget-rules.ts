import { anchor, type FindingFactory } from "./findings";
import { CODE_BLOCK_MAX_LINES, SINGLE_CYCLE_MAX_FILES, TOKEN_BUDGET, TOKEN_TARGET_COMPLEX, TOKEN_TARGET_SIMPLE } from "./limits";
import type { Outline } from "./outline";
import { filesTouched } from "./query";
import type { PacketFinding } from "./types";

/**
 * Size: over 2,000 tokens is a BLOCK (Constraint 4, "MUST NOT exceed"); at or over the
 * COMPRESS target is a WARN. A task is "simple" when it is single-cycle (fewer than 3
 * files touched), the seed's own line between small and larger work; otherwise "complex".
 */
export function budgetFindings(o: Outline, at: FindingFactory, tokens: number): PacketFinding[] {
  const out: PacketFinding[] = [];
  if (tokens > TOKEN_BUDGET) {
    out.push(
      at({
        rule: "token-cap",
        tier: "BLOCK",
        message: `${tokens} tokens: over the ${TOKEN_BUDGET}-token cap. Compress: type names instead of file contents, decisions instead of discussions.`,
        ...anchor(o),
      }),
    );
  } else {
    const simple = filesTouched(o).length < SINGLE_CYCLE_MAX_FILES;
    const target = simple ? TOKEN_TARGET_SIMPLE : TOKEN_TARGET_COMPLEX;
    if (tokens >= target) {
      out.push(
        at({
          rule: "token-target",
          tier: "WARN",
          message: `${tokens} tokens: the target for a ${simple ? "simple" : "complex"} task is under ${target}. Strip what the receiver does not need.`,
          ...anchor(o),
        }),
      );
    }
  }
  out.push(...codeBlockFindings(o, at));
  return out;
}

/** Constraint 5, "MUST NOT include full file contents": a fenced block longer than a signature or an excerpt. */
function codeBlockFindings(o: Outline, at: FindingFactory): PacketFinding[] {
  const out: PacketFinding[] = [];
  const { lines } = o;
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.fence !== "open") continue;
    let j = i + 1;
    while (j < lines.length && lines[j]!.fence !== "close") j++;
    const body = j - i - 1;
    const last = lines[Math.min(j, lines.length - 1)]!;
    if (body > CODE_BLOCK_MAX_LINES) {
      out.push(
        at({
          rule: "full-file-contents",
          tier: "WARN",
          message: `Code block of ${body} lines: looks like full file contents. Give the type names and signatures with a one-line summary instead.`,
          offset: lines[i]!.start,
          length: last.end - lines[i]!.start,
        }),
      );
    }
    i = j;
  }
  return out;
}
