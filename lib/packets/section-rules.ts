import { anchor, type FindingFactory } from "./findings";
import { SINGLE_CYCLE_MAX_FILES, TYPE_SURFACE_MIN_TOKENS } from "./limits";
import type { Outline } from "./outline";
import { criteriaOf, filesTouched, sectionHasContent, sectionOf, sectionsOf, valueOf } from "./query";
import { hasRealEntry, namesTypes } from "./type-entries";
import { KIND_HEADING } from "./section-keys";
import type { PacketFinding, TaskTokensSource } from "./types";

/** The delegated task's size for the Type Surface gate, and where it came from. */
export interface TaskSize {
  tokens: number;
  source: TaskTokensSource;
}

/** Where a missing or empty part is reported: its own heading when it has one, else the packet's. */
function spanOf(o: Outline, head: { start: number; end: number } | null) {
  return head ? { offset: head.start, length: head.end - head.start } : anchor(o);
}

/**
 * The section gates: the task goal and acceptance criteria (Constraint 1), Out of scope
 * (Constraint 7, HARD-GATE) and Type Surface (Constraint 8, HARD-GATE).
 */
export function sectionFindings(o: Outline, at: FindingFactory, size: TaskSize): PacketFinding[] {
  const out: PacketFinding[] = [];
  const brief = o.kind === "brief";

  if (!o.heading) {
    out.push(
      at({
        rule: "missing-heading",
        tier: "WARN",
        message: `No "${KIND_HEADING[o.kind]}" heading: receivers and the completion-gate recognise the ${brief ? "brief" : "packet"} by it. Add it as the first line.`,
        ...anchor(o),
      }),
    );
  }

  const task = valueOf(o, brief ? "summary" : "task");
  if (!task.hasContent) {
    const label = brief ? "**Summary:**" : "**Task**:";
    out.push(
      at({
        rule: "missing-task",
        tier: "BLOCK",
        message: task.present
          ? `${label} has no content (empty, or still the template placeholder): state the task goal as one verb-led, behavioural line (the receiver must know what it is for).`
          : `No ${label} line: state the task goal as one verb-led, behavioural line (the receiver must know what it is for).`,
        ...spanOf(o, task.head),
      }),
    );
  }

  const ac = sectionOf(o, "acceptance");
  if (!ac || criteriaOf(o, ac).length === 0) {
    const title = brief ? "**Acceptance criteria:**" : "### Acceptance Criteria";
    out.push(
      at({
        rule: "missing-acceptance",
        tier: "BLOCK",
        message: ac
          ? `${title} has no criteria (none written, or only template placeholders): add "- [ ] <behaviour verb> …" lines so the receiver knows when it is done.`
          : `No ${title} section: add "- [ ] <behaviour verb> …" lines so the receiver knows when it is done.`,
        ...spanOf(o, ac?.head ?? null),
      }),
    );
  }

  out.push(...outOfScopeFindings(o, at));
  out.push(...typeSurfaceFindings(o, at, size));
  return out;
}

/**
 * The HARD-GATE refuses a packet without the Out of scope heading; Constraint 7 allows it
 * empty on purpose ("(none)"). A heading with nothing under it is present, so it only
 * warns: the receiver cannot tell an empty list from a forgotten one, and "- (none)" says
 * which it is.
 */
function outOfScopeFindings(o: Outline, at: FindingFactory): PacketFinding[] {
  const brief = o.kind === "brief";
  const title = brief ? "**Out of scope:**" : "### Out of scope";
  const oos = sectionOf(o, "out-of-scope");
  if (!oos) {
    return [
      at({
        rule: "missing-out-of-scope",
        tier: "BLOCK",
        message: `No ${title} section: it is mandatory (write "- (none)" when nothing is excluded). The completion-gate rejects ${brief ? "briefs" : "packets"} without it.`,
        ...anchor(o),
      }),
    ];
  }
  if (sectionHasContent(o, oos)) return [];
  return [
    at({
      rule: "out-of-scope-empty",
      tier: "WARN",
      message: `${title} lists nothing (empty, or only template placeholders): list what the receiver must NOT do, or write "- (none)" when nothing is excluded, so an empty list reads as deliberate.`,
      ...spanOf(o, oos.head),
    }),
  ];
}

/**
 * Type Surface (a brief's Key interfaces play that part) is the durable spine. "Task >= 300
 * tokens" is the size of the delegated task, which only the caller knows; without it the
 * packet's own token estimate stands in (the result says which). At ≥ 300 tokens a missing
 * Type Surface is a BLOCK (HARD-GATE). Below that it is optional only for a single-cycle
 * task (< 3 files touched, durability exception); a smaller packet touching more files
 * gets a WARN, since the seed's durability rule wants it but the HARD-GATE does not.
 * A section of only "(none)", TBD-style filler or template text is as missing as no section:
 * the spine is the types and signatures, and unlike Out of scope it cannot be empty on
 * purpose. Written entries that name no recognisable type only WARN: a notation we do not
 * know must not stop an emission.
 */
function typeSurfaceFindings(o: Outline, at: FindingFactory, task: TaskSize): PacketFinding[] {
  const key = o.kind === "brief" ? "key-interfaces" : "type-surface";
  const title = o.kind === "brief" ? "**Key interfaces:**" : "### Type Surface (durable)";
  const all = sectionsOf(o, key);
  if (all.some((x) => namesTypes(o, x))) return [];
  const written = all.find((x) => hasRealEntry(o, x));
  if (written) {
    // Written entries we do not recognise as types (a table, an unusual notation) may still be the contract: a person judges.
    return [
      at({
        rule: "type-surface-names-no-type",
        tier: "WARN",
        message: `${title} does not seem to name a type or signature. Write each as \`Name { field: T }\` or \`Module.fn(input: T): R\` so the receiver can find it after a rename.`,
        ...spanOf(o, written.head ?? null),
      }),
    ];
  }
  const s = all[0];
  const files = filesTouched(o).length;
  const why = !s ? `No ${title} section` : sectionHasContent(o, s) ? `${title} holds only "(none)", TBD-style filler or template text` : `${title} has no content`;
  const size = task.source === "caller" ? `the task is ${task.tokens} tokens, as given` : `the packet is ${task.tokens} tokens; no task size was given`;
  if (task.tokens >= TYPE_SURFACE_MIN_TOKENS) {
    return [
      at({
        rule: "missing-type-surface",
        tier: "BLOCK",
        message: `${why}: it is mandatory for tasks of ${TYPE_SURFACE_MIN_TOKENS}+ tokens (${size}). List the types and signatures callers cross (\`Name { field: T }\`, \`Module.fn(input: T): R\`).`,
        ...spanOf(o, s?.head ?? null),
      }),
    ];
  }
  if (files >= SINGLE_CYCLE_MAX_FILES) {
    return [
      at({
        rule: "missing-type-surface",
        tier: "WARN",
        message: `${why}: only single-cycle tasks (under ${TYPE_SURFACE_MIN_TOKENS} tokens and fewer than ${SINGLE_CYCLE_MAX_FILES} files) may omit it, and this one touches ${files} files (${size}).`,
        ...spanOf(o, s?.head ?? null),
      }),
    ];
  }
  return [];
}
