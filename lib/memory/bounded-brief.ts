/**
 * Drafts and checks the two texts agent-context-budget hands on: the bounded task packet
 * (`.coord/context_<NNN>.md`, "What goes into a brief": goal and acceptance, files and tools in
 * scope, evidence paths, recorded human decisions, relevant interfaces or schemas) and the
 * fresh-session primer (`.coord/session_primer.md`, "Before context runs out": goal, current
 * state, decisions and who made them, open questions, evidence paths, next step). Drafts are
 * filled from what `.coord/` records (decisions and who made them, open questions, evidence);
 * what only a person knows (scope, acceptance, interfaces) is left as a placeholder the checks
 * refuse.
 */
import { countTokens, TOKENIZER_NAME } from "../core/tokens";
import type { CoordSnapshot } from "./coord";
export { recordedActors } from "./actors";
import { PACKET_FILE, parseContextPacket, parsePrimer } from "./coord-packets";
import type { CoordIssue } from "./issues";

/** The seed's return cap: every brief asks for these, and nothing longer inline. */
export const RETURN_CAP = ["status", "summary", "files changed", "checks run", "risks", "blockers"] as const;

/** Other names a return-contract item may give a field; "risks and blockers" is neither (one item per field). */
const RETURN_CAP_ALIASES: Partial<Record<(typeof RETURN_CAP)[number], readonly string[]>> = {
  summary: ["short summary", "concise summary"],
};

/** What a return-contract item caps: its text before any explanation ("summary (short; …)" is summary). */
function returnItemLabel(line: string): string {
  const item = line.replace(/^(?:[-*]|\d+[.)])\s*/, "");
  return item
    .split(/\s*(?:[:(;,]|\s[—–-]\s)/)[0]!
    .trim()
    .replace(/\s+/g, " ")
    .toLowerCase();
}

/** The return-cap fields the contract's items do not cap, each needing an item of its own. */
export function missingReturnCap(contractLines: readonly string[]): (typeof RETURN_CAP)[number][] {
  const labels = new Set(contractLines.map(returnItemLabel));
  return RETURN_CAP.filter((f) => !labels.has(f) && !(RETURN_CAP_ALIASES[f] ?? []).some((a) => labels.has(a)));
}

export type DraftKind = "brief" | "primer";

function bullets(items: readonly string[], empty: string): string {
  return items.length ? items.map((i) => `- ${i}`).join("\n") : `- ${empty}`;
}

/** The bounded task packet for one task, in the skill's shape. */
export function draftTaskBrief(snapshot: CoordSnapshot, taskId: string): string {
  const cp = snapshot.checkpoints.find((c) => c.checkpoint.task_id === taskId);
  const policy = snapshot.policies.find((p) => p.file === ".coord/policy.json") ?? snapshot.policies[0];
  const task = cp ? (cp.version === 1 ? cp.checkpoint : cp.checkpoint.task) : null;
  const memory = snapshot.memory;
  const decisions = [
    ...(task?.decisions ?? []).map((d) => `${d.gate} / ${d.actor} / ${d.decision} / ${d.affected_action_hash}`),
    ...(memory?.view.current ?? []).filter((e) => e.event_type === "decision").map((e) => `memory ${e.event_id} / ${e.approval.actor} / approve / ${e.approval.affected_action_hash} — ${e.summary}`),
  ];
  const evidence = [...new Set([...(task?.evidence_refs ?? []), ...(memory?.view.current ?? []).flatMap((e) => e.evidence_refs)])];
  return [
    `# Context packet — ${taskId}`,
    "",
    "Policy",
    `- policy_ref: ${policy?.file ?? "<policy path>"}`,
    `- policy_hash: ${policy?.policyHash ?? "<sha256>"}`,
    `- checkpoint_ref: ${cp?.file ?? "<checkpoint path>"}`,
    "",
    "Goal",
    "- <one behaviour the task must deliver>",
    "",
    "Recorded decisions",
    bullets(decisions, "(none recorded)"),
    "",
    "Evidence",
    bullets(evidence, "<path or stable source locator>"),
    "",
    "Interfaces",
    "- <interfaces or schemas the task relies on, by path (or none)>",
    "",
    "Scope",
    "- may read: <paths>",
    "- may write: <paths>",
    "- must not touch: <paths>",
    "",
    "Acceptance",
    "- <runnable check>",
    "",
    "Return contract",
    "- status",
    "- summary (short; long output goes to a file, returned by path)",
    "- files changed",
    "- checks run",
    "- risks",
    "- blockers",
    "- raw logs, transcripts and full diffs by path only",
    "",
  ].join("\n");
}

/** The fresh-session primer: goal, state, decisions and who made them, open questions, evidence, next step. */
export function draftPrimer(snapshot: CoordSnapshot): string {
  const memory = snapshot.memory;
  const state = snapshot.checkpoints.map((c) => {
    const t = c.version === 1 ? c.checkpoint : c.checkpoint.task;
    return `${t.task_id}: ${t.status}, cycle ${t.cycle}, ${t.tool_calls} tool calls${t.stop_reason ? `, stopped: ${t.stop_reason}` : ""}`;
  });
  const decisions = (memory?.view.current ?? []).filter((e) => e.event_type === "decision").map((e) => `${e.event_id}: ${e.summary} (approved by ${e.approval.actor}, ${e.approval.timestamp})`);
  const questions = (memory?.view.openQuestions ?? []).map((e) => `${e.event_id}: ${e.summary}`);
  const evidence = [...new Set((memory?.view.current ?? []).flatMap((e) => e.evidence_refs))];
  const pending = snapshot.proposals.filter((p) => p.proposal.state === "proposed").map((p) => `proposal ${p.proposal.proposal_id.slice(0, 8)}: ${p.proposal.action.operation} — ${p.proposal.action.summary}`);
  return [
    "# Session primer",
    "",
    "## Goal",
    "- <what this work is for>",
    "",
    "## Current state",
    bullets([...state, ...pending], "(no task checkpoints)"),
    "",
    "## Decisions and who made them",
    bullets(decisions, "(none recorded)"),
    "",
    "## Open questions",
    bullets(questions, "(none)"),
    "",
    "## Evidence paths",
    bullets(evidence, "(none)"),
    "",
    "## Next step",
    "- <the next concrete action>",
    "",
  ].join("\n");
}

export interface DraftCheck {
  issues: CoordIssue[];
  tokens: number;
  tokenizer: string;
  /** The policy's cap for this text (max_task_packet_tokens for a packet), when there is one. */
  budget: number | null;
  /** True when nothing blocks handing it on (warnings allowed). */
  ready: boolean;
}

export interface DraftCheckOptions {
  /** Actors the project's records name (recordedActors), besides `human:<id>`. */
  actors?: readonly string[];
}

/** The checks the skill asks for, on a packet or primer someone is writing. */
export function checkDraft(kind: DraftKind, text: string, budget: number | null, opts: DraftCheckOptions = {}): DraftCheck {
  const file = kind === "brief" ? ".coord/context_NNN.md" : ".coord/session_primer.md";
  const parseOpts = { actors: opts.actors ?? [] };
  // A placeholder left in blocks here (the reader of .coord/ only warns about it): nothing
  // is handed on with "<paths>" in its scope.
  const parsed = kind === "brief" ? parseContextPacket(text, file, 0, parseOpts) : parsePrimer(text, file, parseOpts);
  const issues = parsed.issues.filter((i) => !/placeholder/i.test(i.message));
  if (kind === "brief" && "packet" in parsed) {
    const { sections } = parsed.packet;
    const contract = sections["Return contract"];
    if (contract) {
      for (const item of missingReturnCap(contract)) {
        issues.push({ file, field: "Return contract", message: `${file}: the return contract does not cap "${item}" (the seed's return cap: ${RETURN_CAP.join(", ")})` });
      }
    }
    // A brief names the interfaces or schemas the task relies on, or says there are none.
    if (!sections.Interfaces) issues.push({ file, field: "Interfaces", message: `${file}: missing section "Interfaces" (the relevant interfaces or schemas, or "none")` });
    else if (sections.Interfaces.length === 0) issues.push({ file, field: "Interfaces", message: `${file}: section "Interfaces" is empty (write "none" when no interface or schema is relevant)` });
  }
  // `<key_id>` is a placeholder; `Promise<Result>` and anything in a code span are code.
  const placeholders = [...text.matchAll(/(?<![\w$])<[^<>\n]{2,80}>/g)].filter((m) => !insideCodeSpan(text, m.index));
  for (const p of placeholders) {
    const line = text.slice(0, p.index).split("\n").length;
    issues.push({ file, line, message: `${file}:${line}: placeholder ${p[0]} still to fill in` });
  }
  const tokens = countTokens(text);
  if (budget !== null && tokens > budget) issues.push({ file, message: `${file}: ${tokens} tokens, over the policy's ${budget}` });
  return { issues, tokens, tokenizer: TOKENIZER_NAME, budget, ready: !issues.some((i) => i.severity !== "warning") };
}

/** Where a new packet goes: the next free context_NNN.md. */
export function nextPacketFile(existing: readonly string[]): string {
  const used = existing
    .map((f) => PACKET_FILE.exec(f.split("/").pop() ?? ""))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => Number(m[1]));
  const next = (used.length ? Math.max(...used) : 0) + 1;
  if (next > 999) throw new Error("context_999.md is the last packet number");
  return `.coord/context_${String(next).padStart(3, "0")}.md`;
}

/** Whether `offset` falls inside a `code span` on its line (an odd number of backticks before it). */
function insideCodeSpan(text: string, offset: number): boolean {
  const lineStart = text.lastIndexOf("\n", offset - 1) + 1;
  return (text.slice(lineStart, offset).match(/`/g)?.length ?? 0) % 2 === 1;
}
