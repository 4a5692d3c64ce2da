import type { FindingTier, SeedRef } from "./types";

/**
 * Where each rule's tier comes from in seed 001 (context-pack). The seed's HARD-GATE
 * (line 77), its Phase 4.5 smell-test table, its Constraints and the agent brief's BLOCK
 * checks are what refuse an emission; its Self-Validation list and Sharp Edges name the
 * rest as things to fix. Every finding carries its line, so a user can see why it blocks
 * or only warns. Quotes are the seed's own words at that line (a test checks them).
 */
const ref = (line: number, part: string, quote: string): SeedRef => Object.freeze({ seed: "001", line, part, quote });

const SEED_REFS: Readonly<Record<string, SeedRef>> = Object.freeze({
  // Phase 4.5 smell tests; "Any BLOCK-tier match → DO NOT emit" (HARD-GATE).
  "file-line-ref": ref(72, "Phase 4.5 smell tests", "file:line reference (e.g., login.ts:42) — line numbers go stale"),
  "path-bullet-outside-files-touched": ref(73, "Phase 4.5 smell tests", "Path-only bullet in narrative"),
  "line-number-ref": ref(74, "Phase 4.5 smell tests", '"line 42" / "on line 100"'),
  "narrative-path": ref(75, "Phase 4.5 smell tests", "Path mention; verify it belongs in Files Touched section"),
  // HARD-GATE.
  "missing-out-of-scope": ref(77, "HARD-GATE", "Missing `### Out of scope` section → DO NOT emit (completion-gate rejects)."),
  "missing-type-surface": ref(77, "HARD-GATE", "Missing `### Type Surface` for tasks >= 300 tokens → DO NOT emit."),
  // Constraints.
  "missing-task": ref(150, "Constraint 1", "MUST include task goal and acceptance criteria"),
  "missing-acceptance": ref(150, "Constraint 1", "MUST include task goal and acceptance criteria"),
  "token-cap": ref(153, "Constraint 4", "MUST NOT exceed 2000 tokens"),
  "full-file-contents": ref(154, "Constraint 5", "MUST NOT include full file contents"),
  // A placeholder hands the receiver the template's words as if they were the parent's context.
  "template-placeholder": ref(155, "Constraint 6", "MUST NOT fabricate context — only include information from the actual conversation"),
  "out-of-scope-empty": ref(156, "Constraint 7", "empty (none) allowed, missing section is rejected by completion-gate"),
  "ac-shape-verb": ref(159, "Constraint 10", 'shape verbs ("is defined", "has property") rejected'),
  // Agent brief: additional BLOCK-tier checks.
  "brief-category": ref(133, "Agent brief BLOCK checks", "**Category:** line present (bug / enhancement / refactor)"),
  "brief-current-desired": ref(134, "Agent brief BLOCK checks", "Both **Current behavior:** and **Desired behavior:** sections present"),
  "brief-ac-independent": ref(135, "Agent brief BLOCK checks", "Acceptance criteria are independently testable (each pass/fail alone)"),
  "brief-key-interfaces-paths": ref(136, "Agent brief BLOCK checks", "**Key interfaces:** names types/functions, not file paths"),
  // Output Format, Workflow, Self-Validation: things to fix, not gates.
  "type-surface-names-no-type": ref(49, "Workflow: COLLECT", "Type Surface — types / function signatures / contracts that callers cross"),
  "token-target": ref(56, "Workflow: COMPRESS", "Target: <500 tokens for simple tasks, <1500 tokens for complex"),
  "missing-heading": ref(83, "Output Format (v2)", "## Context Packet"),
  "task-not-verb-led": ref(85, "Output Format (v2)", "[One-line behavioral description, verb-led]"),
  "scope-path": ref(87, "Output Format (v2)", "[type names / module names — NOT file paths]"),
  "ac-verb-not-whitelisted": ref(108, "Output Format (v2)", "verb-led testable statement starting with"),
  "ac-not-a-criterion": ref(108, "Output Format (v2)", "- [ ] [verb-led testable statement"),
  "ac-empty-criterion": ref(181, "Self-Validation", "Packet includes acceptance criteria (verb-led, testable, not vague)"),
  "files-touched-annotation": ref(190, "Self-Validation", "Files Touched entries include (TypeName, function) annotations"),
});

/** Rules whose WARN comes from a different line than their BLOCK. */
const WARN_REFS: Readonly<Record<string, SeedRef>> = Object.freeze({
  // Below the HARD-GATE's size the seed still wants the spine for a task that is not trivial.
  "missing-type-surface": ref(170, "Sharp Edges", "Missing Type Surface section for non-trivial task"),
});

/** Every rule id the validator can report. */
export const RULE_IDS: readonly string[] = Object.freeze(Object.keys(SEED_REFS));

export function seedRefFor(rule: string, tier: FindingTier): SeedRef {
  const r = (tier === "WARN" ? WARN_REFS[rule] : undefined) ?? SEED_REFS[rule];
  // A rule without a seed line is a programming error: every tier must be explained.
  if (!r) throw new Error(`No seed reference for rule "${rule}".`);
  return r;
}

/** How a seed reference reads in a report: `seed 001 line 77 (HARD-GATE)`. */
export function seedRefText(r: SeedRef): string {
  return `seed ${r.seed} line ${r.line} (${r.part})`;
}
