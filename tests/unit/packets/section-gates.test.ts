import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { countTokens } from "../../../lib/core/tokens";
import { BRIEF_TEMPLATE, PACKET_TEMPLATE, parsePacket, renderPacket, validatePacket, type PacketDocument, type PacketFinding } from "../../../lib/packets";

const fixture = (name: string) => fs.readFileSync(path.resolve(import.meta.dirname, "../../fixtures/packets", name), "utf8");
const CLEAN = fixture("clean-packet.md");

function edit(md: string, f: (d: PacketDocument) => PacketDocument): string {
  return renderPacket(f(parsePacket(md)));
}
const drop = (key: string) => (d: PacketDocument) => ({ ...d, sections: d.sections.filter((s) => s.key !== key) });
const setBody = (key: string, body: string) => (d: PacketDocument) => ({ ...d, sections: d.sections.map((s) => (s.key === key ? { ...s, body } : s)) });

function findings(md: string, rule: string): PacketFinding[] {
  const all = validatePacket(md).findings;
  for (const f of all) expect(md.slice(f.offset, f.offset + f.length)).toBe(f.text);
  return all.filter((f) => f.rule === rule);
}

/** A small, single-cycle packet (well under 300 tokens) with the given Files Touched entries. */
function small(files: string[], typeSurface = false): string {
  return [
    "## Context Packet",
    "",
    "**Task**: Reject expired invitations",
    "",
    ...(typeSurface ? ["### Type Surface (durable)", "- `Invitation { expiresAt: Date }` — one invitation", ""] : []),
    "### Files Touched (locator-only, may rename)",
    ...files.map((f) => `- \`${f}\` (InvitationService, accept) — hint`),
    "",
    "### Acceptance Criteria",
    "- [ ] rejects an invitation past its expiry with 410",
    "",
    "### Out of scope",
    "(none)",
    "",
  ].join("\n");
}

describe("missing-out-of-scope (BLOCK: HARD-GATE, missing heading only)", () => {
  it("blocks a packet without the section, pointing at its heading", () => {
    const md = edit(CLEAN, drop("out-of-scope"));
    const [f] = findings(md, "missing-out-of-scope");
    expect(f).toMatchObject({ tier: "BLOCK", text: "## Context Packet", offset: 0, line: 1, column: 1 });
    expect(f!.seedRef).toMatchObject({ line: 77, part: "HARD-GATE" });
    expect(validatePacket(md).emittable).toBe(false);
  });

  it("accepts (none), with or without a bullet, and any heading case", () => {
    for (const md of [edit(CLEAN, setBody("out-of-scope", "(none)")), edit(CLEAN, setBody("out-of-scope", "- (none)")), CLEAN.replace("### Out of scope", "### OUT-OF-SCOPE")]) {
      expect(findings(md, "missing-out-of-scope")).toEqual([]);
      expect(findings(md, "out-of-scope-empty")).toEqual([]);
    }
  });
});

describe("out-of-scope-empty (WARN: the heading is there, Constraint 7 allows it empty)", () => {
  it("warns on an empty section (heading only, or empty bullets) at its heading, asking for - (none); the packet may still be emitted", () => {
    for (const body of ["", "- \n-"]) {
      const md = edit(CLEAN, setBody("out-of-scope", body));
      expect(findings(md, "missing-out-of-scope")).toEqual([]);
      const [f] = findings(md, "out-of-scope-empty");
      expect(f).toMatchObject({ tier: "WARN", text: "### Out of scope", section: "Out of scope" });
      expect(f!.message).toContain('"- (none)"');
      expect(f!.seedRef).toMatchObject({ line: 156, part: "Constraint 7" });
      expect(validatePacket(md).emittable).toBe(true);
    }
  });
});

describe("missing-type-surface", () => {
  it("blocks a packet of 300+ tokens without a Type Surface", () => {
    const md = edit(CLEAN, drop("type-surface"));
    expect(countTokens(md)).toBeGreaterThanOrEqual(300);
    const [f] = findings(md, "missing-type-surface");
    expect(f).toMatchObject({ tier: "BLOCK", text: "## Context Packet" });
    expect(f!.message).toContain(String(countTokens(md)));
  });

  it("blocks an empty Type Surface in a 300+ token packet, at its heading", () => {
    const [f] = findings(edit(CLEAN, setBody("type-surface", "")), "missing-type-surface");
    expect(f).toMatchObject({ tier: "BLOCK", text: "### Type Surface (durable)" });
  });

  it("lets a single-cycle task (< 300 tokens, < 3 files) omit it", () => {
    const md = small(["src/invites/service.ts", "src/invites/store.ts"]);
    expect(countTokens(md)).toBeLessThan(300);
    expect(findings(md, "missing-type-surface")).toEqual([]);
    expect(validatePacket(md).emittable).toBe(true);
  });

  it("warns when a small task touches 3 or more files without one", () => {
    const md = small(["src/invites/service.ts", "src/invites/store.ts", "src/invites/routes.ts"]);
    expect(countTokens(md)).toBeLessThan(300);
    const [f] = findings(md, "missing-type-surface");
    expect(f).toMatchObject({ tier: "WARN" });
    expect(findings(small(["src/a.ts", "src/b.ts", "src/c.ts"], true), "missing-type-surface")).toEqual([]);
  });
});

describe("missing-task and missing-acceptance (BLOCK, Constraint 1)", () => {
  it("blocks a packet without a Task line, or with an empty one", () => {
    const none = edit(CLEAN, (d) => ({ ...d, fields: d.fields.filter((f) => f.key !== "task") }));
    expect(findings(none, "missing-task")).toMatchObject([{ tier: "BLOCK", text: "## Context Packet" }]);
    const empty = edit(CLEAN, (d) => ({ ...d, fields: d.fields.map((f) => (f.key === "task" ? { ...f, value: "" } : f)) }));
    expect(findings(empty, "missing-task")).toMatchObject([{ tier: "BLOCK", text: "**Task**:", line: 3, section: null }]);
    expect(findings(CLEAN, "missing-task")).toEqual([]);
  });

  it("blocks a packet without acceptance criteria, or with a section that lists none", () => {
    expect(findings(edit(CLEAN, drop("acceptance")), "missing-acceptance")).toMatchObject([{ tier: "BLOCK", text: "## Context Packet" }]);
    expect(findings(edit(CLEAN, setBody("acceptance", "We will know it when we see it.")), "missing-acceptance")).toMatchObject([{ tier: "BLOCK", text: "### Acceptance Criteria" }]);
    expect(findings(CLEAN, "missing-acceptance")).toEqual([]);
  });
});

describe("files-touched-annotation (WARN: a Self-Validation check, not a gate)", () => {
  it("warns on an entry without its (Type, fn) annotation, highlighting the entry; the packet may still be emitted", () => {
    const md = edit(
      CLEAN,
      setBody("files-touched", "- `src/auth/middleware.ts` — where requests are authenticated\n- `src/auth/store.ts` (new file) — hint\n- `src/auth/refresher.ts` (TokenRefresher) — one name is enough"),
    );
    const fs_ = findings(md, "files-touched-annotation");
    expect(fs_.map((f) => [f.tier, f.text, f.section, f.seedRef.line])).toEqual([
      ["WARN", "`src/auth/middleware.ts` — where requests are authenticated", "Files Touched (locator-only, may rename)", 190],
      ["WARN", "`src/auth/store.ts` (new file) — hint", "Files Touched (locator-only, may rename)", 190],
    ]);
    expect(validatePacket(md).emittable).toBe(true);
  });

  it("accepts annotated entries (plain, qualified, backticked names) and (none)", () => {
    expect(findings(CLEAN, "files-touched-annotation")).toEqual([]);
    const md = edit(CLEAN, setBody("files-touched", "- `src/a.ts` (`Session`, `Session.refresh()`) — hint\n- src/b.ts (Store, Store.get) — hint\n- (none)"));
    expect(findings(md, "files-touched-annotation")).toEqual([]);
  });
});

describe("template-placeholder (BLOCK)", () => {
  it("blocks every placeholder the templates leave in place", () => {
    for (const t of [PACKET_TEMPLATE, BRIEF_TEMPLATE]) {
      const v = validatePacket(t);
      expect(v.emittable).toBe(false);
      expect(v.findings.filter((f) => f.rule === "template-placeholder").length).toBeGreaterThan(5);
    }
    const [task] = findings(PACKET_TEMPLATE, "template-placeholder");
    expect(task).toMatchObject({ text: "[One-line behavioral description, verb-led]", line: 3, column: 11 });
  });

  it("does not flag filled-in lines", () => {
    expect(findings(CLEAN, "template-placeholder")).toEqual([]);
  });
});

describe("missing-heading (WARN)", () => {
  it("warns when the packet has no ## Context Packet heading", () => {
    const md = CLEAN.replace("## Context Packet\n\n", "");
    expect(findings(md, "missing-heading")).toMatchObject([{ tier: "WARN", offset: 0, length: 0, text: "" }]);
    expect(findings(CLEAN, "missing-heading")).toEqual([]);
  });
});
