/**
 * Drafts and checks the two texts agent-context-budget hands on: the bounded task packet
 * (`.coord/context_<NNN>.md`, "What goes into a brief") and the fresh-session primer
 * (`.coord/session_primer.md`, "Before context runs out"). Drafts are filled from what
 * `.coord/` records (decisions and who made them, open questions, evidence); what only a
 * person knows (scope, acceptance) is left as a placeholder the checks refuse.
 */
import { countTokens, TOKENIZER_NAME } from "../core/tokens";
import type { CoordSnapshot } from "./coord";
import { PACKET_FILE, parseContextPacket, parsePrimer } from "./coord-packets";
import type { CoordIssue } from "./issues";

/** The seed's return cap: every brief asks for these, and nothing longer inline. */
export const RETURN_CAP = ["status", "summary", "files changed", "checks run", "risks", "blockers"] as const;

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

/** The checks the skill asks for, on a packet or primer someone is writing. */
export function checkDraft(kind: DraftKind, text: string, budget: number | null): DraftCheck {
  const file = kind === "brief" ? ".coord/context_NNN.md" : ".coord/session_primer.md";
  // A placeholder left in blocks here (the reader of .coord/ only warns about it): nothing
  // is handed on with "<paths>" in its scope.
  const parsed = kind === "brief" ? parseContextPacket(text, file, 0).issues : parsePrimer(text, file).issues;
  const issues = parsed.filter((i) => !/placeholder/i.test(i.message));
  if (kind === "brief") {
    const contract = /^#*\s*Return contract:?\s*$/im.exec(text);
    const body = contract ? text.slice(contract.index).split(/\n(?=#*\s*(?:Policy|Goal|Recorded decisions|Evidence|Scope|Acceptance)\s*:?\s*$)/im)[0]!.toLowerCase() : "";
    for (const item of RETURN_CAP) {
      if (!body.includes(item)) issues.push({ file, field: "Return contract", message: `${file}: the return contract does not cap "${item}" (the seed's return cap: ${RETURN_CAP.join(", ")})` });
    }
  }
  const placeholders = [...text.matchAll(/<[^<>\n]{2,80}>/g)];
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
  const used = existing.map((f) => PACKET_FILE.exec(f.split("/").pop() ?? "")).filter((m): m is RegExpExecArray => m !== null).map((m) => Number(m[1]));
  const next = (used.length ? Math.max(...used) : 0) + 1;
  if (next > 999) throw new Error("context_999.md is the last packet number");
  return `.coord/context_${String(next).padStart(3, "0")}.md`;
}
