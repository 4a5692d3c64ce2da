import { WorkbenchError } from "../core/errors";
import { TOKENIZER_NAME } from "../core/tokens";
import { acceptanceFindings } from "./acceptance-rules";
import { briefFindings } from "./brief-rules";
import { budgetFindings } from "./budget-rules";
import { completenessOf, missingContext } from "./completeness";
import { filesTouchedFindings } from "./files-touched-rules";
import { headerFindings } from "./header-rules";
import { compareFindings, findingFactory } from "./findings";
import { TASK_TOKENS_MAX, TOKEN_BUDGET } from "./limits";
import { outline } from "./outline";
import { placeholderFindings } from "./placeholder-rules";
import { sectionFindings, type TaskSize } from "./section-rules";
import { smellFindings } from "./smell-rules";
import { packetTokens } from "./token-count";
import type { PacketFinding, ValidationResult } from "./types";

export interface ValidateOptions {
  /**
   * The size of the delegated task in tokens, as the caller knows it ("Type Surface is
   * mandatory if task >= 300 tokens"). Absent or null: the packet's own estimate stands in.
   */
  taskTokens?: number | null;
}

/**
 * The seed's VALIDATE and PHASE 4.5 steps over a packet or brief (kind from its heading):
 * every finding with its exact place in the markdown as given (CRLF included) and the seed
 * line behind its tier, the token estimate, the task size used, completeness and warnings.
 * `emittable` is the HARD-GATE: false while any BLOCK finding stands.
 */
export function validatePacket(markdown: string, options: ValidateOptions = {}): ValidationResult {
  if (typeof markdown !== "string") throw new WorkbenchError("INVALID_INPUT", "validatePacket needs the packet's markdown as a string.");
  const given = options.taskTokens ?? null;
  if (given !== null && !(Number.isInteger(given) && given >= 0 && given <= TASK_TOKENS_MAX)) {
    throw new WorkbenchError("INVALID_INPUT", `The task size must be a whole number of tokens from 0 to ${TASK_TOKENS_MAX.toLocaleString("en")}.`);
  }
  const o = outline(markdown);
  const at = findingFactory(o);
  const tokens = packetTokens(markdown);
  const task: TaskSize = given === null ? { tokens, source: "packet" } : { tokens: given, source: "caller" };
  const findings: PacketFinding[] = [
    ...smellFindings(o, at),
    ...sectionFindings(o, at, task),
    ...headerFindings(o, at),
    ...filesTouchedFindings(o, at),
    ...acceptanceFindings(o, at),
    ...(o.kind === "brief" ? briefFindings(o, at) : []),
    ...budgetFindings(o, at, tokens),
    ...placeholderFindings(o, at),
  ].sort(compareFindings);
  const warnings = [...missingContext(o), ...findings.filter((f) => f.tier === "WARN").map(warningText)];
  return {
    kind: o.kind,
    packet: markdown,
    token_estimate: tokens,
    task_tokens: task.tokens,
    task_tokens_source: task.source,
    tokenizer: TOKENIZER_NAME,
    budget: TOKEN_BUDGET,
    completeness: completenessOf(o, findings),
    warnings,
    findings,
    emittable: !findings.some((f) => f.tier === "BLOCK"),
  };
}

/** How a WARN finding reads in `warnings`. */
export function warningText(f: PacketFinding): string {
  return `${f.rule} (line ${f.line}): ${f.message}`;
}
