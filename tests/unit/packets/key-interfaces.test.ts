import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parsePacket, renderPacket, validatePacket, type PacketDocument, type PacketFinding } from "../../../lib/packets";

const BRIEF = fs.readFileSync(path.resolve(import.meta.dirname, "../../fixtures/packets/clean-brief.md"), "utf8");

function edit(md: string, f: (d: PacketDocument) => PacketDocument): string {
  return renderPacket(f(parsePacket(md)));
}
const setBody = (key: string, body: string) => (d: PacketDocument) => ({ ...d, sections: d.sections.map((s) => (s.key === key ? { ...s, body } : s)) });

function pathFindings(md: string): PacketFinding[] {
  const all = validatePacket(md).findings;
  for (const f of all) expect(md.slice(f.offset, f.offset + f.length)).toBe(f.text);
  return all.filter((f) => f.rule === "brief-key-interfaces-paths");
}

describe("brief-key-interfaces-paths: every entry shape is checked", () => {
  it("blocks a path written inline after the label", () => {
    const md = BRIEF.replace(/\*\*Key interfaces:\*\*\n/, "**Key interfaces:** `src/skills/config.ts`\n");
    const [f, ...rest] = pathFindings(md);
    expect(rest).toEqual([]);
    expect(f).toMatchObject({ tier: "BLOCK", text: "`src/skills/config.ts`", section: "Key interfaces", line: 15 });
  });

  it("blocks paths in numbered items and plain paragraph lines", () => {
    const md = edit(BRIEF, setBody("key-interfaces", "1. `src/types/skill.ts` — add a schedule field\n2) lib/runner/ — the scheduler\npackages/runner/log.ts records runs\n- `SkillConfig` — gains `schedule`"));
    expect(pathFindings(md).map((f) => [f.tier, f.text])).toEqual([
      ["BLOCK", "`src/types/skill.ts`"],
      ["BLOCK", "lib/runner/"],
      ["BLOCK", "packages/runner/log.ts"],
    ]);
    expect(validatePacket(md).emittable).toBe(false);
  });

  it("reads a nested bullet as a detail of the entry above, not as an interface", () => {
    const md = edit(BRIEF, setBody("key-interfaces", "- `SkillConfig` — gains `schedule`\n  - `src/skills/config.ts` — where it lives"));
    expect(pathFindings(md)).toEqual([]);
    const lead = edit(BRIEF, setBody("key-interfaces", "- `src/skills/config.ts` — the config\n  - `SkillConfig` — gains `schedule`"));
    expect(pathFindings(lead).map((f) => f.text)).toEqual(["`src/skills/config.ts`"]);
  });

  it("lets a bug brief cite a path paired with its type or function, as the seed allows", () => {
    expect(BRIEF).toMatch(/\*\*Category:\*\* (?!bug)/);
    const paired = "- `src/auth/store.ts` (SessionStore, touch) — the expiry write";
    expect(pathFindings(edit(BRIEF, setBody("key-interfaces", paired))).length).toBe(1);
    const bug = BRIEF.replace(/\*\*Category:\*\* \S+/, "**Category:** bug");
    expect(pathFindings(edit(bug, setBody("key-interfaces", paired)))).toEqual([]);
    expect(pathFindings(edit(bug, setBody("key-interfaces", "- `src/auth/store.ts` — the expiry write"))).length).toBe(1);
  });

  it("accepts inline and numbered types, and a path inside fenced code", () => {
    const inline = BRIEF.replace(/\*\*Key interfaces:\*\*\n/, "**Key interfaces:** `SkillConfig` and `Scheduler.due(now)`\n");
    expect(pathFindings(inline)).toEqual([]);
    const numbered = edit(BRIEF, setBody("key-interfaces", '1. `Scheduler.due(now: Date): SkillConfig[]` — due skills\n2. RunLog — one entry per run\n```ts\nimport { x } from "src/runner/log.ts";\n```'));
    expect(pathFindings(numbered)).toEqual([]);
  });
});
