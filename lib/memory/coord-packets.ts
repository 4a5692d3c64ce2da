/**
 * Context packets (`.coord/context_<NNN>.md`) and the fresh-session primer
 * (`.coord/session_primer.md`) of the agent-context-budget skill (FORMATS §4, packet shape):
 *
 *   # Context packet — <task id>
 *   Policy (policy_ref, policy_hash, checkpoint_ref) / Goal / Recorded decisions / Evidence /
 *   Scope (may read, may write, must not touch) / Acceptance / Return contract
 *
 * plus an optional Interfaces section (the seed's "relevant interfaces or schemas"; the draft
 * checks require it, a packet an agent wrote without one is still read).
 *
 * Sections are recognised by their title on a line of its own (with or without `#`s or a colon).
 * A missing section or field is an error; a template placeholder left in (`<path>`) a warning.
 * Evidence must list something: missing evidence is reported as missing, never handed on as an
 * empty section. Every recorded decision line names who made it (`human:<id>`, or an actor the
 * project's records name), since a decision without its maker is not a recorded decision.
 *
 * The primer must cover the seed's "Before context runs out" topics, each under its own title
 * (`## Goal`, or `Goal: …` on one line): goal, current state, decisions and who made them, open
 * questions, evidence paths, next step. A missing or empty topic is an error.
 */
import type { CoordIssue } from "./issues";

export const PACKET_FILE = /^context_(\d{3})\.md$/;
export const PACKET_SECTIONS = ["Policy", "Goal", "Recorded decisions", "Evidence", "Scope", "Acceptance", "Return contract"] as const;
/** Sections read when present; the draft checks require them (see bounded-brief.ts). */
export const OPTIONAL_PACKET_SECTIONS = ["Interfaces"] as const;
export type PacketSection = (typeof PACKET_SECTIONS)[number] | (typeof OPTIONAL_PACKET_SECTIONS)[number];

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

export interface PacketParseOptions {
  /** Actors the project's records name (memory events, checkpoint decisions), besides `human:<id>`. */
  actors?: readonly string[];
}

const HEADING = /^#\s+Context packet\s+[—–-]\s+(.+?)\s*$/;
const SECTION_TITLES: Record<string, PacketSection> = {
  ...Object.fromEntries(PACKET_SECTIONS.map((s) => [s.toLowerCase(), s])),
  interfaces: "Interfaces",
  "interfaces or schemas": "Interfaces",
  "interfaces and schemas": "Interfaces",
  "relevant interfaces or schemas": "Interfaces",
};

function sectionOf(line: string): PacketSection | null {
  const t = line
    .replace(/^#+\s*/, "")
    .replace(/:\s*$/, "")
    .trim()
    .toLowerCase();
  return SECTION_TITLES[t] ?? null;
}

function field(lines: readonly string[] | undefined, name: string): string | null {
  for (const l of lines ?? []) {
    const m = new RegExp(`^[-*]\\s*${name.replace(/ /g, "\\s+")}\\s*:\\s*(.*)$`, "i").exec(l);
    if (m) return m[1]!.trim() || null;
  }
  return null;
}

/** "(none)", "- none recorded": an explicit statement that there is nothing to list. */
const NOTHING_LINE = /^(?:[-*]\s*)?\(?\s*(?:none|nothing)(?:\s+recorded)?\s*\)?\.?$/i;
/** A line that is only a template placeholder (reported as such, not twice). */
const PLACEHOLDER_LINE = /^(?:[-*]\s*)?<[^<>]+>$/;

/** True when a decision line says who made it: `human:<id>` or one of the recorded actors. */
export function namesActor(line: string, actors: readonly string[] = []): boolean {
  return /(?:^|[^\w])human:[^\s/,;()]+/.test(line) || actors.some((a) => a.trim() !== "" && line.includes(a));
}

/** A section line: its text trimmed, whether it was indented, and its 1-based line number. */
interface SectionLine {
  text: string;
  line: number;
  indented?: boolean;
}

/** A top-level list item starts a decision; indented or unmarked lines after it continue it. */
const ENTRY_START = /^(?:[-*+]|\d{1,9}[.)])\s/;

/**
 * Issues for decisions that do not name who made them. A decision is an entry, not a line:
 * a record written a field per line (`- gate: …` / `  actor: human:ana` / `  decision: …`)
 * or wrapped over several lines names its actor once.
 */
function decisionActorIssues(lines: readonly SectionLine[], actors: readonly string[], report: (message: string, line: number) => void): void {
  const entries: SectionLine[][] = [];
  for (const l of lines) {
    const starts = entries.length === 0 || (!l.indented && ENTRY_START.test(l.text));
    if (starts) entries.push([l]);
    else entries.at(-1)!.push(l);
  }
  for (const entry of entries) {
    const first = entry[0]!;
    if (entry.length === 1 && (NOTHING_LINE.test(first.text) || PLACEHOLDER_LINE.test(first.text))) continue;
    if (entry.some((l) => namesActor(l.text, actors))) continue;
    report(`decision does not name who made it (human:<key_id> or a recorded actor): ${first.text}`, first.line);
  }
}

export function parseContextPacket(text: string, file: string, number: number, opts: PacketParseOptions = {}): { packet: ContextPacket; issues: CoordIssue[] } {
  const issues: CoordIssue[] = [];
  const lines = text.split(/\r?\n/);
  const err = (message: string, line?: number, fieldName?: string, severity: "error" | "warning" = "error") =>
    issues.push({ file, ...(fieldName ? { field: fieldName } : {}), ...(line ? { line } : {}), message: `${file}${line ? `:${line}` : ""}: ${message}`, ...(severity === "warning" ? { severity } : {}) });

  const first = lines.findIndex((l) => l.trim() !== "");
  const head = first >= 0 ? HEADING.exec(lines[first]!.trim()) : null;
  if (!head) err('the first line must be "# Context packet — <task id>"', first >= 0 ? first + 1 : 1, "title");

  const sections: Partial<Record<PacketSection, string[]>> = {};
  const numbered: Partial<Record<PacketSection, SectionLine[]>> = {};
  const sectionLine: Partial<Record<PacketSection, number>> = {};
  let current: PacketSection | null = null;
  lines.forEach((raw, i) => {
    if (i === first) return;
    const s = sectionOf(raw);
    if (s) {
      if (sections[s]) err(`section "${s}" appears twice`, i + 1, s);
      current = s;
      sections[s] = [];
      numbered[s] = [];
      sectionLine[s] = i + 1;
      return;
    }
    if (current && raw.trim() !== "") {
      sections[current]!.push(raw.trim());
      numbered[current]!.push({ text: raw.trim(), line: i + 1, indented: /^\s/.test(raw) });
    }
    if (/(?<![\w$])<[a-z][a-z /_-]*>/i.test(raw) && !/^\s*#/.test(raw)) err(`template placeholder left in: ${raw.trim()}`, i + 1, current ?? undefined, "warning");
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
  for (const s of ["Goal", "Evidence", "Acceptance", "Return contract"] as const) {
    if (sections[s] && sections[s]!.length === 0) err(`section "${s}" is empty${s === "Evidence" ? " (list the evidence paths; missing evidence is reported, not left out)" : ""}`, sectionLine[s], s);
  }
  decisionActorIssues(numbered["Recorded decisions"] ?? [], opts.actors ?? [], (message, line) => err(message, line, "Recorded decisions"));

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

/** The seed's "Before context runs out" topics, each with the titles a primer may give it. */
export const PRIMER_TOPICS = [
  { topic: "goal", title: "Goal", titles: ["goal"] },
  { topic: "current state", title: "Current state", titles: ["current state", "state", "status"] },
  { topic: "decisions", title: "Decisions and who made them", titles: ["decisions and who made them", "decisions", "recorded decisions", "human decisions"] },
  { topic: "open questions", title: "Open questions", titles: ["open questions", "open question"] },
  { topic: "evidence", title: "Evidence paths", titles: ["evidence paths", "evidence"] },
  { topic: "next step", title: "Next step", titles: ["next step", "next steps"] },
] as const;
type PrimerTopic = (typeof PRIMER_TOPICS)[number]["topic"];

const topicOf = (title: string): PrimerTopic | null => {
  const t = title.trim().replace(/\s+/g, " ").toLowerCase();
  return PRIMER_TOPICS.find((p) => (p.titles as readonly string[]).includes(t))?.topic ?? null;
};

export interface SessionPrimer {
  file: string;
  text: string;
  /** Topics the primer has a section for, in the seed's order. */
  topics: string[];
}

export function parsePrimer(text: string, file = PRIMER_FILE, opts: PacketParseOptions = {}): { primer: SessionPrimer; issues: CoordIssue[] } {
  const issues: CoordIssue[] = [];
  const err = (message: string, fieldName?: string, line?: number, severity: "error" | "warning" = "error") =>
    issues.push({ file, ...(fieldName ? { field: fieldName } : {}), ...(line ? { line } : {}), message: `${file}${line ? `:${line}` : ""}: ${message}`, ...(severity === "warning" ? { severity } : {}) });
  if (text.trim() === "") {
    issues.push({ file, message: `${file}: the primer is empty` });
    return { primer: { file, text, topics: [] }, issues };
  }

  const body = new Map<PrimerTopic, SectionLine[]>();
  const at = new Map<PrimerTopic, number>();
  let current: PrimerTopic | null = null;
  const start = (topic: PrimerTopic, line: number) => {
    if (body.has(topic)) err(`the primer covers "${topic}" twice`, topic, line, "warning");
    else body.set(topic, []);
    at.set(topic, line);
    current = topic;
  };
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = i + 1;
    const heading = /^#{1,6}\s+(.*?)\s*:?\s*$/.exec(raw);
    if (heading) {
      // An unknown heading (the title, "Unresolved failures"…) ends the topic before it.
      const topic = topicOf(heading[1]!);
      if (topic) start(topic, line);
      else current = null;
      return;
    }
    const label = /^([A-Za-z][A-Za-z ]*?)\s*:\s*(.*)$/.exec(raw.trim());
    const labelled = label ? topicOf(label[1]!) : null;
    if (label && labelled) {
      start(labelled, line);
      if (label[2]!.trim() !== "") body.get(labelled)!.push({ text: label[2]!.trim(), line });
      return;
    }
    if (current && raw.trim() !== "") body.get(current)!.push({ text: raw.trim(), line, indented: /^\s/.test(raw) });
  });

  for (const t of PRIMER_TOPICS) {
    const lines = body.get(t.topic);
    if (!lines) err(`the primer has no "${t.title}" section (before context runs out, a primer gives: goal, current state, decisions and who made them, open questions, evidence paths, next step)`, t.topic);
    else if (lines.length === 0) err(`section "${t.title}" is empty (write "none" when there is nothing to say)`, t.topic, at.get(t.topic));
  }
  decisionActorIssues(body.get("decisions") ?? [], opts.actors ?? [], (message, line) => err(message, "decisions", line));
  const topics = PRIMER_TOPICS.filter((t) => body.has(t.topic)).map((t) => t.topic);
  return { primer: { file, text, topics }, issues };
}
