import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BRIEF_TEMPLATE, parsePacket, renderPacket, validatePacket, type PacketDocument, type PacketFinding } from "../../../lib/packets";

const fixture = (name: string) => fs.readFileSync(path.resolve(import.meta.dirname, "../../fixtures/packets", name), "utf8");
const BRIEF = fixture("clean-brief.md");
const PACKET = fixture("clean-packet.md");

function edit(md: string, f: (d: PacketDocument) => PacketDocument): string {
  return renderPacket(f(parsePacket(md)));
}
const setBody = (key: string, body: string) => (d: PacketDocument) => ({ ...d, sections: d.sections.map((s) => (s.key === key ? { ...s, body } : s)) });
const drop = (key: string) => (d: PacketDocument) => ({ ...d, sections: d.sections.filter((s) => s.key !== key), fields: d.fields.filter((f) => f.key !== key) });
const setField = (key: string, value: string) => (d: PacketDocument) => ({ ...d, fields: d.fields.map((f) => (f.key === key ? { ...f, value } : f)) });

function findings(md: string, rule: string): PacketFinding[] {
  const all = validatePacket(md).findings;
  for (const f of all) expect(md.slice(f.offset, f.offset + f.length)).toBe(f.text);
  return all.filter((f) => f.rule === rule);
}

/** The anti-pattern of references/agent-brief.md: every way a brief rots. */
const ROTTING = `## Agent Brief

**Summary:** Fix the triage bug

**What to do:**
The triage thing is broken. Look at the main file and fix it.
The function around line 150 has the issue.

**Files to change:**
- src/triage/handler.ts (line 150)
- src/types.ts (line 42)
`;

describe("agent brief", () => {
  it("passes a clean, realistic brief", () => {
    const v = validatePacket(BRIEF);
    expect(v.kind).toBe("brief");
    expect(v.findings).toEqual([]);
    expect(v.emittable).toBe(true);
    expect(v.completeness).toBe("full");
  });

  it("refuses the anti-pattern brief for each reason agent-brief.md gives", () => {
    const v = validatePacket(ROTTING);
    const rules = new Set(v.findings.filter((f) => f.tier === "BLOCK").map((f) => f.rule));
    expect([...rules].sort()).toEqual(["brief-category", "brief-current-desired", "line-number-ref", "missing-acceptance", "missing-out-of-scope", "path-bullet-outside-files-touched"].sort());
    expect(v.findings.filter((f) => f.rule === "line-number-ref").map((f) => f.text)).toEqual(["line 150", "line 150", "line 42"]);
    expect(v.findings.filter((f) => f.rule === "brief-current-desired")).toHaveLength(2);
    expect(v.emittable).toBe(false);
    expect(v.completeness).toBe("minimal");
  });
});

describe("brief-category (BLOCK)", () => {
  it("blocks a brief without **Category:**", () => {
    expect(findings(edit(BRIEF, drop("category")), "brief-category")).toMatchObject([{ tier: "BLOCK", text: "## Agent Brief" }]);
  });

  it("blocks a category outside bug | enhancement | refactor, suggesting the one meant", () => {
    const [f] = findings(edit(BRIEF, setField("category", "feature")), "brief-category");
    expect(f).toMatchObject({ tier: "BLOCK", text: "feature", suggestion: "enhancement", line: 3, column: 15 });
    const [g] = findings(BRIEF_TEMPLATE, "brief-category");
    expect(g).toMatchObject({ text: "bug | enhancement | refactor" });
    expect(g!.suggestion).toBeUndefined();
  });

  it.each(["bug", "enhancement", "refactor", "Refactor"])("accepts %s", (c) => {
    expect(findings(edit(BRIEF, setField("category", c)), "brief-category")).toEqual([]);
  });
});

describe("brief-current-desired (BLOCK)", () => {
  it("blocks a missing Current behavior and an empty Desired behavior, once each", () => {
    const md = edit(BRIEF, (d) => setBody("desired-behavior", "")(drop("current-behavior")(d)));
    const fs_ = findings(md, "brief-current-desired");
    expect(fs_.map((f) => [f.tier, f.text])).toEqual([
      ["BLOCK", "## Agent Brief"],
      ["BLOCK", "**Desired behavior:**"],
    ]);
    expect(fs_[0]!.message).toContain("Current behavior");
  });

  it("accepts both written inline after their labels", () => {
    const md = BRIEF.replace(/\*\*Current behavior:\*\*\n/, "**Current behavior:** ").replace(/\*\*Desired behavior:\*\*\n/, "**Desired behavior:** ");
    expect(findings(md, "brief-current-desired")).toEqual([]);
  });
});

describe("brief-ac-independent (BLOCK)", () => {
  const withCriteria = (...c: string[]) => edit(BRIEF, setBody("acceptance", c.map((x) => `- [ ] ${x}`).join("\n")));

  it.each([
    ["and then", "accepts the schedule and then starts the first run", "and then"],
    ["after the above", "persists the run after the above criterion passes", "after the above criterion"],
    ["same as previous", "rejects the input same as previous", "same as previous"],
    ["as in criterion N", "logs the skip as in criterion 2", "as in criterion 2"],
    ["the previous step", "returns the id created by the previous step", "the previous step"],
  ])("blocks a criterion that refers to another (%s), highlighting the reference", (_name, criterion, text) => {
    const [f, ...rest] = findings(withCriteria("accepts a valid schedule", criterion), "brief-ac-independent");
    expect(rest).toEqual([]);
    expect(f).toMatchObject({ tier: "BLOCK", text, line: 22, section: "Acceptance criteria" });
  });

  it("blocks two behaviours chained with 'and', suggesting one criterion each", () => {
    const md = withCriteria("returns 404 and logs the attempt");
    const [f] = findings(md, "brief-ac-independent");
    expect(f).toMatchObject({ text: "returns 404 and logs the attempt", suggestion: "returns 404\n- [ ] logs the attempt" });
    const fixed = md.slice(0, f!.offset) + f!.suggestion + md.slice(f!.offset + f!.length);
    expect(findings(fixed, "brief-ac-independent")).toEqual([]);
  });

  it("accepts near misses: 'and' between objects, 'previous' about data, and the same text in a packet", () => {
    expect(findings(withCriteria("rejects empty and whitespace-only names", "logs a skipped run when the previous run is still going"), "brief-ac-independent")).toEqual([]);
    const packet = edit(PACKET, setBody("acceptance", "- [ ] returns 404 and logs the attempt"));
    expect(findings(packet, "brief-ac-independent")).toEqual([]);
  });
});

describe("brief-key-interfaces-paths (BLOCK)", () => {
  it("blocks an entry that leads with a file path", () => {
    const md = edit(BRIEF, setBody("key-interfaces", "- `src/types/skill.ts` — add a schedule field\n- lib/runner/ — the scheduler\n- `SkillConfig` — gains `schedule`"));
    expect(findings(md, "brief-key-interfaces-paths").map((f) => [f.tier, f.text])).toEqual([
      ["BLOCK", "`src/types/skill.ts`"],
      ["BLOCK", "lib/runner/"],
    ]);
  });

  it("accepts types, signatures and a path mentioned later in the entry", () => {
    const md = edit(
      BRIEF,
      setBody("key-interfaces", "- `Scheduler.due(now: Date): SkillConfig[]` — due skills\n- Markdown file format in `.out-of-scope/` — one file per concept\n- `Request/Response` pair — the handler contract"),
    );
    expect(findings(md, "brief-key-interfaces-paths")).toEqual([]);
  });
});

describe("brief Out of scope", () => {
  it("blocks a brief without **Out of scope:**, accepts an inline (none)", () => {
    expect(findings(edit(BRIEF, drop("out-of-scope")), "missing-out-of-scope")).toMatchObject([{ tier: "BLOCK", text: "## Agent Brief" }]);
    const inline = BRIEF.replace("**Out of scope:**\n- Time zones other than UTC\n- A UI for editing schedules", "**Out of scope:** (none)");
    expect(inline).not.toBe(BRIEF);
    expect(findings(inline, "missing-out-of-scope")).toEqual([]);
  });
});
