import { BEHAVIOR_VERBS } from "./verbs";
import { renderPacket } from "./render";
import { keyFor } from "./section-keys";
import type { PacketDocument, PacketKind } from "./types";

type Skeleton = { fields: [string, string][]; sections: [string, string[]][] };

/** The seed's Output Format (v2), placeholders included. */
const PACKET: Skeleton = {
  fields: [
    ["Task", "[One-line behavioral description, verb-led]"],
    ["Parent", "[delegating skill]"],
    ["Scope", "[type names / module names — NOT file paths]"],
  ],
  sections: [
    ["Decisions Made", ["- [Decision]: chose [X] over [Y] because [reason]"]],
    ["Constraints", ["- MUST: [behavioral assertion]", "- MUST NOT: [behavioral prohibition]", "- BLOCKED BY: [contract dependency, not file path]"]],
    ["Already Tried", ["- [approach] — [observable failure mode]"]],
    ["Type Surface (durable)", ["- `TypeName { field: type }` — [what it represents]", "- `Module.method(input: T): Result<O, E>` — [contract]"]],
    ["Files Touched (locator-only, may rename)", ["- `path/to/file.ts` (TypeName, Module.method) — [behavioral hint]"]],
    ["Acceptance Criteria", [`- [ ] [verb-led testable statement starting with: ${BEHAVIOR_VERBS.join(", ")}]`, "- [ ] ..."]],
    ["Out of scope", ["- [Thing the receiver should NOT do]", '- (or "(none)" if explicitly empty)']],
    ["Progress", ["- [partial state if mid-handoff — omit if fresh start]"]],
  ],
};

/** The template of references/agent-brief.md. */
const BRIEF: Skeleton = {
  fields: [
    ["Category", "bug | enhancement | refactor"],
    ["Summary", "one-line description of what needs to happen"],
  ],
  sections: [
    ["Current behavior", ["What happens now. For bugs: the broken behavior. For enhancements: the status quo."]],
    ["Desired behavior", ["What should happen after the work is complete. Be specific about edge cases and error conditions."]],
    ["Key interfaces", ["- `TypeName` — what needs to change and why", "- `functionName(input: T): Result<O, E>` — current contract vs desired contract", "- Config shape — any new options needed"]],
    ["Acceptance criteria", ["- [ ] Specific, independently testable criterion 1", "- [ ] Specific, independently testable criterion 2", "- [ ] Specific, independently testable criterion 3"]],
    ["Out of scope", ["- Thing that should NOT be changed", "- Adjacent feature that might seem related but is separate", '- (or "(none)" if explicitly empty)']],
    ["Files Touched (locator hints, may rename)", ["- `path/to/file.ts` (`TypeName`, `functionName`) — behavioral hint"]],
  ],
};

const SKELETONS: Record<PacketKind, Skeleton> = { packet: PACKET, brief: BRIEF };

function fromSkeleton(kind: PacketKind, filled: boolean): PacketDocument {
  const sk = SKELETONS[kind];
  return {
    kind,
    preamble: "",
    fields: sk.fields.map(([label, value]) => ({ key: keyFor(label), label, value: filled ? value : "" })),
    sections: sk.sections.map(([title, body]) => ({ key: keyFor(title), title, body: filled ? body.join("\n") : "" })),
    trailing: "",
  };
}

/** Every field and section of the kind's template, in order, with nothing filled in. */
export function emptyDocument(kind: PacketKind): PacketDocument {
  return fromSkeleton(kind, false);
}

/** New-from-template texts; their placeholders fail validation until replaced. */
export const PACKET_TEMPLATE: string = renderPacket(fromSkeleton("packet", true));
export const BRIEF_TEMPLATE: string = renderPacket(fromSkeleton("brief", true));

/**
 * Template text left in place: each placeholder line, and each field's placeholder value.
 * The brief's Category placeholder is left to the brief-category check.
 */
export const PLACEHOLDERS: Record<PacketKind, ReadonlySet<string>> = {
  packet: placeholderSet(PACKET),
  brief: placeholderSet({ ...BRIEF, fields: BRIEF.fields.filter(([l]) => l !== "Category") }),
};

function placeholderSet(sk: Skeleton): ReadonlySet<string> {
  return new Set([...sk.fields.map(([, v]) => v), ...sk.sections.flatMap(([, lines]) => lines)]);
}
