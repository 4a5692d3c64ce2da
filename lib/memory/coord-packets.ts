/**
 * Context packets (`.coord/context_<NNN>.md`) and the fresh-session primer
 * (`.coord/session_primer.md`) of the agent-context-budget skill (FORMATS §4, packet shape):
 *
 *   # Context packet — <task id>
 *   Policy (policy_ref, policy_hash, checkpoint_ref) / Goal / Recorded decisions / Evidence /
 *   Scope (may read, may write, must not touch) / Acceptance / Return contract
 *
 * Sections are recognised by their title on a line of its own (with or without `#`s or a colon).
 * A missing section or field is an error; a template placeholder left in (`<path>`) a warning.
 * The primer has no fixed shape, only topics it must cover (goal, current state, decisions,
 * open questions, evidence, next step); a topic not mentioned is a warning.
 */
import type { CoordIssue } from "./issues";

export const PACKET_FILE = /^context_(\d{3})\.md$/;
export const PACKET_SECTIONS = ["Policy", "Goal", "Recorded decisions", "Evidence", "Scope", "Acceptance", "Return contract"] as const;
export type PacketSection = (typeof PACKET_SECTIONS)[number];

export interface ContextPacket {
  file: string;
  /** NNN of context_NNN.md. */
  number: number;
  taskId: string | null;
  policyRef: string | null;
  policyHash: string | null;
  checkpointRef: string | null;
  scope: { mayRead: string | null; mayWrite: string | null; mustNotTouch: string | null };
  /** Body lines of each section found (trimmed, blank lines dropped). */
  sections: Partial<Record<PacketSection, string[]>>;
}

const HEADING = /^#\s+Context packet\s+[—–-]\s+(.+?)\s*$/;

function sectionOf(line: string): PacketSection | null {
  const t = line.replace(/^#+\s*/, "").replace(/:\s*$/, "").trim().toLowerCase();
  return PACKET_SECTIONS.find((s) => s.toLowerCase() === t) ?? null;
}

function field(lines: readonly string[] | undefined, name: string): string | null {
  for (const l of lines ?? []) {
    const m = new RegExp(`^[-*]\\s*${name.replace(/ /g, "\\s+")}\\s*:\\s*(.*)$`, "i").exec(l);
    if (m) return m[1]!.trim() || null;
  }
  return null;
}

export function parseContextPacket(text: string, file: string, number: number): { packet: ContextPacket; issues: CoordIssue[] } {
  const issues: CoordIssue[] = [];
  const lines = text.split(/\r?\n/);
  const err = (message: string, line?: number, fieldName?: string, severity: "error" | "warning" = "error") =>
    issues.push({ file, ...(fieldName ? { field: fieldName } : {}), ...(line ? { line } : {}), message: `${file}${line ? `:${line}` : ""}: ${message}`, ...(severity === "warning" ? { severity } : {}) });

  const first = lines.findIndex((l) => l.trim() !== "");
  const head = first >= 0 ? HEADING.exec(lines[first]!.trim()) : null;
  if (!head) err('the first line must be "# Context packet — <task id>"', first >= 0 ? first + 1 : 1, "title");

  const sections: Partial<Record<PacketSection, string[]>> = {};
  const sectionLine: Partial<Record<PacketSection, number>> = {};
  let current: PacketSection | null = null;
  lines.forEach((raw, i) => {
    if (i === first) return;
    const s = sectionOf(raw);
    if (s) {
      if (sections[s]) err(`section "${s}" appears twice`, i + 1, s);
      current = s;
      sections[s] = [];
      sectionLine[s] = i + 1;
      return;
    }
    if (current && raw.trim() !== "") sections[current]!.push(raw.trim());
    if (/<[a-z][a-z /_-]*>/i.test(raw) && !/^\s*#/.test(raw)) err(`template placeholder left in: ${raw.trim()}`, i + 1, current ?? undefined, "warning");
  });

  let order = 0;
  for (const s of PACKET_SECTIONS) {
    if (!sections[s]) {
      err(`missing section "${s}"`, undefined, s);
      continue;
    }
    const at = sectionLine[s]!;
    if (at < order) err(`section "${s}" is out of order`, at, s, "warning");
    order = Math.max(order, at);
  }
  for (const s of ["Goal", "Acceptance", "Return contract"] as const) {
    if (sections[s] && sections[s]!.length === 0) err(`section "${s}" is empty`, sectionLine[s], s);
  }

  const policyRef = field(sections.Policy, "policy_ref");
  const policyHash = field(sections.Policy, "policy_hash");
  const checkpointRef = field(sections.Policy, "checkpoint_ref");
  if (sections.Policy) {
    if (!policyRef) err("Policy has no policy_ref", sectionLine.Policy, "Policy.policy_ref");
    if (!policyHash) err("Policy has no policy_hash", sectionLine.Policy, "Policy.policy_hash");
    else if (!/^[a-f0-9]{64}$/.test(policyHash)) err(`policy_hash is not a lowercase SHA-256: ${policyHash}`, sectionLine.Policy, "Policy.policy_hash");
    if (!checkpointRef) err("Policy has no checkpoint_ref", sectionLine.Policy, "Policy.checkpoint_ref");
  }
  const scope = { mayRead: field(sections.Scope, "may read"), mayWrite: field(sections.Scope, "may write"), mustNotTouch: field(sections.Scope, "must not touch") };
  if (sections.Scope) {
    if (scope.mayRead === null) err('Scope has no "may read"', sectionLine.Scope, "Scope.may read");
    if (scope.mayWrite === null) err('Scope has no "may write"', sectionLine.Scope, "Scope.may write");
    if (scope.mustNotTouch === null) err('Scope has no "must not touch"', sectionLine.Scope, "Scope.must not touch");
  }
  return {
    packet: { file, number, taskId: head ? head[1]! : null, policyRef, policyHash: policyHash && /^[a-f0-9]{64}$/.test(policyHash) ? policyHash : null, checkpointRef, scope, sections },
    issues,
  };
}

export const PRIMER_FILE = ".coord/session_primer.md";
const PRIMER_TOPICS: { topic: string; pattern: RegExp }[] = [
  { topic: "goal", pattern: /\bgoal\b/i },
  { topic: "current state", pattern: /\b(current state|state|status)\b/i },
  { topic: "decisions", pattern: /\bdecision/i },
  { topic: "open questions", pattern: /\bopen questions?\b|\bquestions?\b/i },
  { topic: "evidence", pattern: /\bevidence\b/i },
  { topic: "next step", pattern: /\bnext steps?\b/i },
];

export interface SessionPrimer {
  file: string;
  text: string;
  /** Topics the primer mentions. */
  topics: string[];
}

export function parsePrimer(text: string, file = PRIMER_FILE): { primer: SessionPrimer; issues: CoordIssue[] } {
  const issues: CoordIssue[] = [];
  if (text.trim() === "") issues.push({ file, message: `${file}: the primer is empty` });
  const topics = PRIMER_TOPICS.filter((t) => t.pattern.test(text)).map((t) => t.topic);
  for (const t of PRIMER_TOPICS) {
    if (!topics.includes(t.topic) && text.trim() !== "") issues.push({ file, field: t.topic, message: `${file}: the primer does not mention ${t.topic}`, severity: "warning" });
  }
  return { primer: { file, text, topics }, issues };
}
