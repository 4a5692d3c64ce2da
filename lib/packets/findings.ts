import { lineColumn } from "./lines";
import type { Outline } from "./outline";
import { seedRefFor } from "./seed-refs";
import type { FindingTier, PacketFinding } from "./types";

export interface FindingSpec {
  rule: string;
  tier: FindingTier;
  message: string;
  offset: number;
  length: number;
  suggestion?: string;
}

/** Builds findings for one text: line, column, section, the exact text from an offset, and the seed line behind the rule's tier. */
export type FindingFactory = (spec: FindingSpec) => PacketFinding;

export function findingFactory(o: Outline): FindingFactory {
  const starts = o.lines.map((l) => l.start);
  return (spec) => {
    const { line, column } = lineColumn(starts, spec.offset);
    const owner = o.owner[line - 1] ?? -1;
    const f: PacketFinding = {
      rule: spec.rule,
      tier: spec.tier,
      message: spec.message,
      text: o.text.slice(spec.offset, spec.offset + spec.length),
      offset: spec.offset,
      length: spec.length,
      line,
      column,
      section: owner >= 0 ? o.sections[owner]!.title : null,
      ...(spec.suggestion !== undefined ? { suggestion: spec.suggestion } : {}),
      seedRef: seedRefFor(spec.rule, spec.tier),
    };
    return f;
  };
}

/** Where a finding about something missing points: the packet's heading, else the start. */
export function anchor(o: Outline): { offset: number; length: number } {
  return o.heading ? { offset: o.heading.start, length: o.heading.end - o.heading.start } : { offset: 0, length: 0 };
}

export function compareFindings(a: PacketFinding, b: PacketFinding): number {
  return a.offset - b.offset || (a.tier === b.tier ? 0 : a.tier === "BLOCK" ? -1 : 1) || a.rule.localeCompare(b.rule) || a.length - b.length;
}
