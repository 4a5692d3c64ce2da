import type { Outline } from "./outline";
import { criteriaOf, sectionHasContent, sectionOf, sectionsOf, valueOf } from "./query";
import { namesTypes } from "./type-entries";
import type { PacketFinding, ValidationResult } from "./types";

type Completeness = ValidationResult["completeness"];

/** A section or field with something in it; Key interfaces only when they name a type (as the Type Surface gate asks). */
function has(o: Outline, key: string): boolean {
  if (key === "key-interfaces") return sectionsOf(o, key).some((s) => namesTypes(o, s));
  return valueOf(o, key).hasContent;
}

function hasCriteria(o: Outline): boolean {
  const ac = sectionOf(o, "acceptance");
  return !!ac && criteriaOf(o, ac).length > 0;
}

/**
 * How much context the packet captured (the seed's full / partial / minimal):
 * - minimal: the task goal or the acceptance criteria are missing (Constraint 1: the
 *   receiver cannot know what to do or when it is done);
 * - full: every mandatory part is present and non-empty. Packet: task, acceptance
 *   criteria, Constraints, Already Tried (Constraints 1–3), Out of scope, and Type Surface
 *   when the size gate requires it. Brief: its own parts instead (Summary, Category,
 *   Current and Desired behavior, Key interfaces, acceptance criteria, Out of scope); its
 *   template has no Constraints or Already Tried, so they are not asked of it;
 * - partial: anything in between.
 * Template placeholders do not count as content.
 */
export function completenessOf(o: Outline, findings: PacketFinding[]): Completeness {
  const brief = o.kind === "brief";
  if (!has(o, brief ? "summary" : "task") || !hasCriteria(o)) return "minimal";
  const typeSurfaceMissing = findings.some((f) => f.rule === "missing-type-surface" && f.tier === "BLOCK");
  const required = brief ? ["category", "current-behavior", "desired-behavior", "key-interfaces", "out-of-scope"] : ["constraints", "already-tried", "out-of-scope"];
  return required.every((k) => has(o, k)) && !typeSurfaceMissing ? "full" : "partial";
}

/**
 * The seed's `warnings`: context whose absence could make the receiver fail, where no
 * finding already says so. (Missing Out of scope, Type Surface, task or acceptance
 * criteria are findings.)
 */
export function missingContext(o: Outline): string[] {
  const w: string[] = [];
  const gap = (key: string, text: string) => {
    const s = sectionOf(o, key);
    if (!s || !sectionHasContent(o, s)) w.push(text);
  };
  if (o.kind === "packet") {
    gap("constraints", "No constraints (### Constraints): the receiver may break a MUST / MUST NOT it was never told about.");
    gap("already-tried", 'No failed attempts (### Already Tried): the receiver may repeat them; write "(none)" if nothing was tried.');
    gap("decisions", "No decisions (### Decisions Made): the receiver may reopen choices already made.");
    if (!has(o, "scope")) w.push("No **Scope**: the receiver does not know which types and modules the task covers.");
  } else {
    if (!sectionOf(o, "files-touched")) w.push("No **Files Touched (locator hints, may rename):**: the receiver has no starting point in the code.");
  }
  return w;
}
