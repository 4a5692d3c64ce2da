import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { buildCurrentView } from "../../../lib/memory/current-view";
import { type MemoryEvent, parseMemoryText } from "../../../lib/memory/memory-file";
import { actionHash } from "../../../lib/memory/proposal";
import { SAMPLE, memoryPath } from "./helpers";

const sample = parseMemoryText(fs.readFileSync(memoryPath(SAMPLE), "utf8")).events;
let uuid = 0;

/** An event whose approval hash binds the action it implies (operation + target + summary + refs). */
function ev(id: string, op: "add" | "supersede" | "archive" | "delete", extra: Partial<MemoryEvent> = {}): MemoryEvent {
  const target = extra.target_ref ?? (op === "supersede" ? (extra.supersedes?.[0] ?? null) : null);
  const base: MemoryEvent = {
    event_id: id,
    event_type: op === "archive" || op === "delete" ? "lifecycle" : "decision",
    created_at: "2026-02-10T12:00:00Z",
    actor: "human:priya",
    summary: `summary of ${id}`,
    rationale: "because",
    evidence_refs: ["docs/x.md"],
    supersedes: [],
    resolves: [],
    target_ref: target,
    source_proposal_id: `00000000-0000-4000-8000-${String(++uuid).padStart(12, "0")}`,
    approval: { actor: "human:priya", decision: "approve", timestamp: "2026-02-10T11:00:00Z", rationale: "ok", affected_action_hash: "" },
    ...extra,
  };
  base.approval.affected_action_hash = actionHash({ operation: op, target_ref: op === "add" ? null : target, summary: base.summary, evidence_refs: base.evidence_refs });
  return base;
}
const kinds = (v: ReturnType<typeof buildCurrentView>) => v.conflicts.map((c) => [c.kind, ...c.eventIds]);

describe("current memory view", () => {
  it("shows the sample log as current, with M2 an open question and both approvals bound", () => {
    const v = buildCurrentView(sample);
    expect(v.current.map((e) => e.event_id)).toEqual(["M1", "M2"]);
    expect(v.openQuestions.map((e) => e.event_id)).toEqual(["M2"]);
    expect(v.entries.map((e) => [e.approvalCheck, e.approvedOperation])).toEqual([
      ["match", "add"],
      ["match", "add"],
    ]);
    expect(v.conflicts).toEqual([]);
  });

  it("marks superseded events", () => {
    const v = buildCurrentView([...sample, ev("M3", "supersede", { supersedes: ["M1"] })]);
    expect(v.entries[0]).toMatchObject({ status: "superseded", supersededBy: ["M3"] });
    expect(v.current.map((e) => e.event_id)).toEqual(["M2", "M3"]);
    expect(v.entries[2]!.approvedOperation).toBe("supersede");
    expect(v.conflicts).toEqual([]);
  });

  it("marks resolved questions, only from resolution events", () => {
    const resolution = { ...ev("M3", "add"), event_type: "resolution" as const, resolves: ["M2"] };
    const v = buildCurrentView([...sample, resolution]);
    expect(v.entries[1]).toMatchObject({ status: "resolved", resolvedBy: ["M3"] });
    expect(v.openQuestions).toEqual([]);
    expect(v.entries[2]!.approvalCheck).toBe("not_derivable");

    const wrong = buildCurrentView([...sample, { ...ev("M3", "add"), event_type: "resolution" as const, resolves: ["M1"] }, { ...ev("M4", "add"), resolves: ["M2"] }]);
    expect(kinds(wrong)).toEqual([
      ["resolves_non_question", "M3", "M1"],
      ["resolves_from_non_resolution", "M4", "M2"],
    ]);
    expect(wrong.openQuestions.map((e) => e.event_id)).toEqual(["M2"]);
  });

  it("applies archive and delete as a view, telling them apart by the approval hash", () => {
    const v = buildCurrentView([...sample, ev("M3", "archive", { target_ref: "M1" }), ev("M4", "delete", { target_ref: "M2" })]);
    expect(v.entries[0]).toMatchObject({ status: "archived", lifecycle: [{ eventId: "M3", kind: "archive" }] });
    expect(v.entries[1]).toMatchObject({ status: "deleted", lifecycle: [{ eventId: "M4", kind: "delete" }] });
    expect(v.current.map((e) => e.event_id)).toEqual(["M3", "M4"]);
    expect(v.entries).toHaveLength(4); // nothing is removed
  });

  it("reports two events superseding each other, and changes neither", () => {
    const v = buildCurrentView([...sample, ev("M3", "supersede", { supersedes: ["M4"] }), ev("M4", "supersede", { supersedes: ["M3"] })]);
    expect(kinds(v)).toEqual([["mutual_supersede", "M4", "M3"]]);
    expect(v.current.map((e) => e.event_id)).toEqual(["M1", "M2", "M3", "M4"]);
  });

  it("reports competing supersessions of one event", () => {
    const v = buildCurrentView([...sample, ev("M3", "supersede", { supersedes: ["M1"] }), ev("M4", "supersede", { supersedes: ["M1"] })]);
    expect(kinds(v)).toEqual([["competing_supersede", "M1", "M3", "M4"]]);
  });

  it("reports unknown, forward and self references and a lifecycle event without target", () => {
    const v = buildCurrentView([
      ...sample,
      ev("M3", "supersede", { supersedes: ["M9"] }),
      ev("M4", "supersede", { supersedes: ["M5"] }),
      ev("M5", "add"),
      ev("M6", "supersede", { supersedes: ["M6"] }),
      { ...ev("M7", "archive", { target_ref: "M1" }), target_ref: null },
    ]);
    expect(kinds(v)).toEqual([
      ["unknown_reference", "M3", "M9"],
      ["forward_reference", "M4", "M5"],
      ["self_reference", "M6"],
      ["lifecycle_without_target", "M7"],
    ]);
  });

  it("reports duplicate ids, ids going backwards, a proposal applied twice and an event edited after approval", () => {
    const edited = { ...sample[0]!, summary: "Exports may be built inline after all." };
    const twice = { ...ev("M4", "add"), source_proposal_id: sample[1]!.source_proposal_id };
    const v = buildCurrentView([edited, sample[1]!, ev("M2", "add"), twice, ev("M3", "add")]);
    expect(kinds(v)).toEqual([
      ["approval_hash_mismatch", "M1"],
      ["duplicate_id", "M2"],
      ["duplicate_source_proposal", "M4", "M2"],
      ["non_monotonic_id", "M3"],
    ]);
  });
});

describe("a replayed approval in the log", () => {
  it("reports two events from different proposals carrying the same approval", () => {
    const m3 = ev("M3", "add");
    const replayed = { ...ev("M4", "add", { summary: m3.summary }), approval: { ...m3.approval } };
    const v = buildCurrentView([...sample, m3, replayed]);
    expect(kinds(v)).toEqual([["duplicate_approval", "M4", "M3"]]);
    expect(v.conflicts[0]!.message).toMatch(/same approval .* from different proposals/);
    // The same proposal twice stays one conflict of its own kind.
    const twice = buildCurrentView([...sample, m3, { ...m3, event_id: "M4" }]);
    expect(kinds(twice)).toEqual([["duplicate_source_proposal", "M4", "M3"]]);
  });
});
