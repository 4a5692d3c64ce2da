/**
 * Does each evidence reference still resolve in the project? Approval and application both
 * require every ref of a proposal to resolve: "missing evidence is reported as missing, not
 * summarized as success", so the answer is per ref, never one boolean.
 *
 * A ref resolves by its path part (lib/memory/evidence-ref.ts says which forms are split how):
 * `tests/a.py::TestC::test_x[p]`, `src/a.ts#L10-L20`, `src/a.ts:12` and `src/a.ts:Foo.bar` all
 * resolve when their file is in the project. What they point at inside the file (the symbol
 * occurs in it, the file has those lines) is shown next to the status and never gates: code moves
 * and a renamed test must not block a decision a person has read. URLs and blank refs cannot be
 * checked here and therefore do not count as resolved.
 */
import { isWorkbenchError } from "../core/errors";
import { refusalOf, refusalPhrase } from "../core/fs/refusal";
import type { ProjectFs } from "../core/project-fs";
import { type EvidenceRef, parseEvidenceRef } from "./evidence-ref";

export type EvidenceStatus = "present" | "missing" | "outside_project" | "not_a_path";

/** Whether the file has what the ref points at: true, false, or null when it could not be looked at. */
export interface EvidenceTarget {
  found: boolean | null;
  /** The answer in words, naming the file ("test_x occurs in tests/a.py"). */
  note: string;
}

export interface EvidenceCheck {
  ref: string;
  /** The ref's path part, and only it, decides this: present, missing, outside the project, not a path. */
  status: EvidenceStatus;
  /** Which accepted form the ref is written in (evidence-ref.ts). */
  form: EvidenceRef["form"];
  /** The project-relative path that was looked up, when the ref has one. */
  path?: string;
  /** Why the path part does not resolve, as words that follow it ("is missing", "links outside the project"). */
  reason?: string;
  /** The symbol the ref names (a pytest node id's last name, `path:symbol`) and whether the file mentions it. */
  symbol?: EvidenceTarget & { written: string; lookFor: string };
  /** The cited line range and whether the file has those lines. */
  lines?: EvidenceTarget & { start: number; end: number };
  /** A `#fragment` that is not a line range: shown, not checked. */
  fragment?: string;
}

function mentions(text: string, name: string): boolean {
  if (!/^[A-Za-z_$][\w$]*$/.test(name)) return name !== "" && text.includes(name);
  // As a whole name: `test_x` is not found inside `test_x_slow`.
  return new RegExp(`(?<![\\w$])${name.replace(/\$/g, "\\$")}(?![\\w$])`).test(text);
}

function lineCount(text: string): number {
  if (text === "") return 0;
  const n = text.split(/\r\n|\r|\n/).length;
  return /(?:\r\n|\r|\n)$/.test(text) ? n - 1 : n;
}

function range(start: number, end: number): string {
  return start === end ? `line ${start}` : `lines ${start}-${end}`;
}

/** The symbol and line parts of a ref, answered from the file's text or left unanswered with why. */
function targets(r: EvidenceRef, path: string, text: string | null, unread: string): Pick<EvidenceCheck, "symbol" | "lines"> {
  const out: Pick<EvidenceCheck, "symbol" | "lines"> = {};
  if (r.symbol) {
    const { written, lookFor } = r.symbol;
    if (text === null) out.symbol = { written, lookFor, found: null, note: `${lookFor} not looked for: ${unread}` };
    else {
      const found = mentions(text, lookFor);
      out.symbol = { written, lookFor, found, note: found ? `${lookFor} occurs in ${path}` : `${lookFor} does not occur in ${path}` };
    }
  }
  if (r.lines) {
    const { start, end } = r.lines;
    if (text === null) out.lines = { start, end, found: null, note: `${range(start, end)} not looked for: ${unread}` };
    else {
      const n = lineCount(text);
      const found = start >= 1 && start <= end && end <= n;
      const note = found
        ? `${path} has ${range(start, end)} (of ${n})`
        : start < 1
          ? `${range(start, end)}: lines are counted from 1`
          : start > end
            ? `${start}-${end} is not a line range (it ends before it starts)`
            : `${path} has ${n} line${n === 1 ? "" : "s"}, fewer than ${end}`;
      out.lines = { start, end, found, note };
    }
  }
  return out;
}

export async function checkEvidenceRef(pfs: ProjectFs, ref: string): Promise<EvidenceCheck> {
  const r = parseEvidenceRef(ref);
  if (r.path === null) return { ref, status: "not_a_path", form: r.form };
  const p = r.path;
  const head = { ref, form: r.form, path: p, ...(r.fragment !== null ? { fragment: r.fragment } : {}) };
  if (p.startsWith("/") || /^[a-zA-Z]:[\\/]/.test(p) || p.includes("\0") || !pfs.isInside(p)) {
    return { ...head, status: "outside_project", reason: "points outside the project", ...targets(r, p, null, "the path is outside the project") };
  }
  // isFile/isDir resolve links and answer false for anything missing or linking out of the root.
  const isFile = await pfs.isFile(p);
  const isDir = !isFile && (await pfs.isDir(p));
  if (!isFile && !isDir) {
    const why = pfs.whyNotReadable(p) ?? "cannot be read";
    const status = why === "links outside the project" ? "outside_project" : "missing";
    return { ...head, status, reason: why, ...targets(r, p, null, `${p} ${why}`) };
  }
  if (!r.symbol && !r.lines) return { ...head, status: "present" };
  let text: string | null = null;
  let unread = `${p} is a folder`;
  if (isFile) {
    try {
      text = await pfs.readText(p);
    } catch (e) {
      if (!isWorkbenchError(e)) throw e;
      const refusal = refusalOf(e);
      unread = `${p} ${refusal ? refusalPhrase(refusal) : "cannot be read as text"}`;
    }
  }
  return { ...head, status: "present", ...targets(r, p, text, unread) };
}

export async function resolveEvidence(pfs: ProjectFs, refs: readonly string[]): Promise<EvidenceCheck[]> {
  const out: EvidenceCheck[] = [];
  for (const ref of refs) out.push(await checkEvidenceRef(pfs, ref));
  return out;
}

/** True when there is at least one ref and every one is present. */
export function allEvidencePresent(checks: readonly EvidenceCheck[]): boolean {
  return checks.length > 0 && checks.every((c) => c.status === "present");
}

/** "docs/a.md: missing; tests/b.py::test_x: missing (tests/b.py is missing); x: not a path", for error messages. */
export function describeEvidenceProblems(checks: readonly EvidenceCheck[]): string {
  if (checks.length === 0) return "the proposal has no evidence refs";
  return checks
    .filter((c) => c.status !== "present")
    .map((c) => {
      // The reason is added where it says more than the status: a path part, a link out, a pipe.
      const says = c.path !== undefined && c.reason !== undefined && (c.path !== c.ref.trim() || (c.reason !== "is missing" && c.reason !== "points outside the project"));
      return `${c.ref}: ${c.status.replace(/_/g, " ")}${says ? ` (${c.path} ${c.reason})` : ""}`;
    })
    .join("; ");
}
