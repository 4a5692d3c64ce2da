import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { type MemoryEvent, appendEventText, eventBlock, nextEventId, parseMemoryText, serializeMemory } from "../../../lib/memory/memory-file";
import { memoryPath, SAMPLE } from "./helpers";

const sampleText = fs.readFileSync(memoryPath(SAMPLE), "utf8");

function newEvent(overrides: Partial<MemoryEvent> = {}): MemoryEvent {
  return {
    event_id: "M3",
    event_type: "decision",
    created_at: "2026-02-10T12:00:00Z",
    actor: "human:priya",
    summary: "SessionService is the only writer of the sessions table.",
    rationale: "Matches ADR 0002.",
    evidence_refs: ["src/auth/SessionService.ts"],
    supersedes: [],
    resolves: [],
    target_ref: null,
    source_proposal_id: "8d3a6f12-4b7e-4c91-9f0a-1e5d2c8b7a63",
    approval: { actor: "human:priya", decision: "approve", timestamp: "2026-02-10T11:59:00Z", rationale: "Matches ADR 0002.", affected_action_hash: "b".repeat(64) },
    ...overrides,
  };
}

describe("memory.yml parsing", () => {
  it("reads the sample log", () => {
    const p = parseMemoryText(sampleText);
    expect(p.errors).toEqual([]);
    expect(p.doc?.project).toBe("acme-orders");
    expect(p.events.map((e) => [e.event_id, e.event_type])).toEqual([
      ["M1", "decision"],
      ["M2", "open_question"],
    ]);
    expect(nextEventId(p.events)).toBe("M3");
  });

  it("names file, line and field of each fault and keeps the valid events", () => {
    const broken = sampleText
      .replace("event_type: open_question", "event_type: musing")
      .replace('    source_proposal_id: "5b0e2c7a-93d4-4f1e-8a6b-2d7c9e1f4a30"\n', '    source_proposal_id: "5b0e2c7a-93d4-4f1e-8a6b-2d7c9e1f4a30"\n    resolved_by: M9\n');
    const p = parseMemoryText(broken);
    expect(p.doc).toBeNull();
    expect(p.events).toEqual([]);
    expect(p.errors.map((e) => [e.file, e.field, e.line])).toEqual([
      [".coord/memory.yml", "events.0", 5],
      [".coord/memory.yml", "events.1.event_type", 26],
    ]);
    expect(p.errors[0]!.message).toMatch(/resolved_by/);
    const oneBad = parseMemoryText(sampleText.replace("event_type: open_question", "event_type: musing"));
    expect(oneBad.events.map((e) => e.event_id)).toEqual(["M1"]);
    expect(oneBad.errors).toHaveLength(1);
  });

  it("reports YAML syntax errors and duplicate keys with their line", () => {
    const p = parseMemoryText("schema_version: 2\nproject: x\nproject: y\n");
    expect(p.errors[0]).toMatchObject({ file: ".coord/memory.yml", line: 3 });
    expect(p.errors[0]!.message).toBe(".coord/memory.yml: not valid YAML at line 3, column 1 (Map keys must be unique)");
    const q = parseMemoryText('schema_version: 2\nevents: [\n  {"a": 1\n');
    expect(q.errors.length).toBeGreaterThan(0);
    expect(q.errors[0]!.line).toBeGreaterThan(1);
  });

  it("requires non-empty evidence and a target for lifecycle events", () => {
    const text = serializeMemory({ schema_version: 2, project: "p", created_at: "2026-01-01T00:00:00Z", events: [] }).replace(
      "events: []",
      "events:\n" +
        eventBlock({ ...newEvent(), event_type: "lifecycle" }, 2)
          .replace('      - "src/auth/SessionService.ts"\n', "")
          .replace("evidence_refs:", "evidence_refs: []"),
    );
    const p = parseMemoryText(text);
    expect(p.errors.map((e) => e.field).sort()).toEqual(["events.0.evidence_refs", "events.0.target_ref"]);
  });
});

describe("appending an event", () => {
  it("inserts the block after the existing events and changes no other byte", () => {
    const ev = newEvent();
    const next = appendEventText(sampleText, ev);
    expect(next.startsWith(sampleText)).toBe(true);
    expect(next.slice(sampleText.length)).toBe(eventBlock(ev, 2));
    const p = parseMemoryText(next);
    expect(p.errors).toEqual([]);
    expect(p.events).toEqual([...parseMemoryText(sampleText).events, ev]);
  });

  it("keeps comments and trailing text, and copes with a missing final newline", () => {
    const withComment = sampleText + "# end of log\n";
    const next = appendEventText(withComment, newEvent());
    expect(next.replace(eventBlock(newEvent(), 2), "")).toBe(withComment);
    const noNewline = sampleText.trimEnd();
    const next2 = appendEventText(noNewline, newEvent());
    expect(next2.startsWith(noNewline)).toBe(true);
    expect(parseMemoryText(next2).events).toHaveLength(3);
  });

  it("follows the file's own indentation", () => {
    const flat = 'schema_version: 2\nproject: p\ncreated_at: "2026-01-01T00:00:00Z"\nevents:\n' + eventBlock({ ...newEvent(), event_id: "M1" }, 0);
    const next = appendEventText(flat, newEvent({ event_id: "M2", source_proposal_id: "11111111-2222-4333-8444-555555555555" }));
    expect(next.startsWith(flat)).toBe(true);
    expect(next.slice(flat.length).startsWith("- event_id: M2\n")).toBe(true);
    expect(parseMemoryText(next).events.map((e) => e.event_id)).toEqual(["M1", "M2"]);
  });

  it("starts an empty log and extends a flow-style list", () => {
    const empty = serializeMemory({ schema_version: 2, project: "p", created_at: "2026-01-01T00:00:00Z", events: [] });
    expect(empty).toBe('schema_version: 2\nproject: "p"\ncreated_at: "2026-01-01T00:00:00Z"\nevents: []\n');
    expect(parseMemoryText(appendEventText(empty, newEvent({ event_id: "M1" }))).events).toHaveLength(1);
    const flowText = stringify({ schema_version: 2, project: "p", created_at: "2026-01-01T00:00:00Z", events: [newEvent({ event_id: "M1" })] }, { collectionStyle: "flow" });
    const next = appendEventText(flowText, newEvent({ event_id: "M2", source_proposal_id: "11111111-2222-4333-8444-555555555555" }));
    expect(parseMemoryText(next).events.map((e) => e.event_id)).toEqual(["M1", "M2"]);
  });

  it("quotes any text so it reads back exactly", () => {
    const tricky = 'He said: "no" # not a comment\n\tline two \\ backslash \u0085 nel \u2028 ls \u{1F600} \x7f del - [x]: {y}';
    const ev = newEvent({ summary: tricky, rationale: "key: value", evidence_refs: ["a b.md", "#hash", "- dash"] });
    const p = parseMemoryText(appendEventText(sampleText, ev));
    expect(p.errors).toEqual([]);
    expect(p.events[2]).toEqual(ev);
  });

  it("refuses an invalid event or a duplicate id and leaves the text alone", () => {
    expect(() => appendEventText(sampleText, newEvent({ event_id: "M2" }))).toThrow(expect.objectContaining({ code: "CONFLICT" }));
    expect(() => appendEventText(sampleText, newEvent({ evidence_refs: [] }))).toThrow(expect.objectContaining({ code: "INVALID_INPUT" }));
    expect(() => appendEventText("schema_version: 2\nevents: [", newEvent())).toThrow(expect.objectContaining({ code: "UNREADABLE" }));
  });
});
