/**
 * Does each evidence reference still resolve in the project? Approval and application both
 * require every ref of a proposal to resolve: "missing evidence is reported as missing, not
 * summarized as success", so the answer is per ref, never one boolean.
 *
 * A ref is a project-relative path to a file or folder, optionally followed by `#fragment` or a
 * `:line` / `:start-end` suffix (both ignored for resolution). URLs and other non-path refs cannot
 * be checked here and therefore do not count as resolved.
 */
import type { ProjectFs } from "../core/project-fs";

export type EvidenceStatus = "present" | "missing" | "outside_project" | "not_a_path";

export interface EvidenceCheck {
  ref: string;
  status: EvidenceStatus;
  /** The project-relative path that was looked up, when the ref is a path. */
  path?: string;
}

/** The path part of a ref, or null for refs that are not project paths (URLs, blanks). */
export function evidencePath(ref: string): string | null {
  const trimmed = ref.trim();
  if (!trimmed || /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed)) return null;
  return trimmed.replace(/#.*$/, "").replace(/:\d+(?:-\d+)?$/, "") || null;
}

export async function resolveEvidence(pfs: ProjectFs, refs: readonly string[]): Promise<EvidenceCheck[]> {
  const out: EvidenceCheck[] = [];
  for (const ref of refs) {
    const p = evidencePath(ref);
    if (p === null) {
      out.push({ ref, status: "not_a_path" });
      continue;
    }
    if (p.startsWith("/") || /^[a-zA-Z]:[\\/]/.test(p) || p.includes("\0") || !pfs.isInside(p)) {
      out.push({ ref, status: "outside_project", path: p });
      continue;
    }
    // isFile/isDir resolve links and answer false for anything missing or linking out of the root.
    const st = (await pfs.isFile(p)) || (await pfs.isDir(p));
    out.push({ ref, status: st ? "present" : "missing", path: p });
  }
  return out;
}

/** True when there is at least one ref and every one is present. */
export function allEvidencePresent(checks: readonly EvidenceCheck[]): boolean {
  return checks.length > 0 && checks.every((c) => c.status === "present");
}

/** "docs/a.md: missing; x: not a path", for error messages. */
export function describeEvidenceProblems(checks: readonly EvidenceCheck[]): string {
  if (checks.length === 0) return "the proposal has no evidence refs";
  return checks
    .filter((c) => c.status !== "present")
    .map((c) => `${c.ref}: ${c.status.replace(/_/g, " ")}`)
    .join("; ");
}
