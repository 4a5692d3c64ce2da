import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isWorkbenchError } from "../../../lib/core/errors";
import { countTokens, TOKENIZER_NAME } from "../../../lib/core/tokens";
import { PACKET_TEMPLATE, parsePacket, renderPacket, validatePacket, type PacketDocument, type ValidationResult } from "../../../lib/packets";
import { validationResultSchema } from "../../../lib/packets/schemas";

const fixture = (name: string) => fs.readFileSync(path.resolve(import.meta.dirname, "../../fixtures/packets", name), "utf8");
const CLEAN = fixture("clean-packet.md");
const FAILING = fixture("failing-packet.md");
const BRIEF = fixture("clean-brief.md");

function edit(md: string, f: (d: PacketDocument) => PacketDocument): string {
  return renderPacket(f(parsePacket(md)));
}
const drop = (key: string) => (d: PacketDocument) => ({ ...d, sections: d.sections.filter((s) => s.key !== key) });

function expectLocated(md: string, v: ValidationResult) {
  const lines = md.split("\n");
  for (const f of v.findings) {
    expect(md.slice(f.offset, f.offset + f.length)).toBe(f.text);
    const before = md.slice(0, f.offset).split("\n");
    expect(f.line).toBe(before.length);
    expect(f.column).toBe(before[before.length - 1]!.length + 1);
    expect(lines[f.line - 1]!.slice(f.column - 1).startsWith(f.text.split(/\r?\n/)[0]!)).toBe(true);
  }
}

describe("validatePacket on the fixtures", () => {
  it("passes the clean packet: no findings, full, emittable, the seed's result fields", () => {
    const v = validatePacket(CLEAN);
    expect(v.findings).toEqual([]);
    expect(v).toMatchObject({ kind: "packet", packet: CLEAN, tokenizer: TOKENIZER_NAME, budget: 2000, completeness: "full", warnings: [], emittable: true });
    expect(v.token_estimate).toBe(countTokens(CLEAN));
    expect(v).toMatchObject({ task_tokens: v.token_estimate, task_tokens_source: "packet" });
    expect(validationResultSchema.parse(v)).toEqual(v);
  });

  it("refuses the failing packet with each finding where it belongs", () => {
    const v = validatePacket(FAILING);
    expect(v.findings.map((f) => [f.line, f.column, f.tier, f.rule, f.text, f.section])).toEqual([
      [3, 1, "BLOCK", "missing-out-of-scope", "## Context Packet", null],
      [3, 1, "BLOCK", "missing-type-surface", "## Context Packet", null],
      [7, 12, "WARN", "narrative-path", "src/auth/", null],
      [10, 37, "BLOCK", "file-line-ref", "session-store.ts:88", "Decisions Made"],
      [15, 18, "BLOCK", "line-number-ref", "on line 88", "Constraints"],
      [19, 1, "BLOCK", "path-bullet-outside-files-touched", "- src/auth/session-store.ts", "Already Tried"],
      [20, 7, "WARN", "narrative-path", "lib/auth/legacy.js", "Already Tried"],
      [23, 3, "WARN", "files-touched-annotation", "`src/auth/session-store.ts` — expiry comparison", "Files Touched"],
      [27, 7, "BLOCK", "ac-shape-verb", "`Session.expiresAt` is defined for every session", "Acceptance Criteria"],
      [28, 7, "WARN", "ac-verb-not-whitelisted", "Should refresh the session when it expires", "Acceptance Criteria"],
      [29, 7, "WARN", "ac-verb-not-whitelisted", "returned 401 for revoked sessions", "Acceptance Criteria"],
    ]);
    expect(v.emittable).toBe(false);
    expect(v.completeness).toBe("partial");
    expectLocated(FAILING, v);
    expect(validationResultSchema.parse(v)).toEqual(v);
  });

  it("passes the clean brief", () => {
    const v = validatePacket(BRIEF);
    expect(v).toMatchObject({ kind: "brief", findings: [], emittable: true, completeness: "full" });
  });
});

describe("offsets, lines and columns", () => {
  it("point into CRLF text as given, on the same lines and columns as LF", () => {
    const crlf = FAILING.replace(/\n/g, "\r\n");
    const lf = validatePacket(FAILING);
    const v = validatePacket(crlf);
    expect(v.findings.map((f) => [f.rule, f.line, f.column, f.text])).toEqual(lf.findings.map((f) => [f.rule, f.line, f.column, f.text]));
    for (const f of v.findings) expect(crlf.slice(f.offset, f.offset + f.length)).toBe(f.text);
    const fileLine = v.findings.find((f) => f.rule === "file-line-ref")!;
    expect(fileLine.offset).toBe(lf.findings.find((f) => f.rule === "file-line-ref")!.offset + 9);
  });

  it("count UTF-16 units: a finding after astral characters is still exact", () => {
    const md = CLEAN.replace("- Changing the session TTL", "- 🚀🚀 Changing the session TTL (see `ttl.ts:9`)");
    const [f] = validatePacket(md).findings;
    expect(f).toMatchObject({ rule: "file-line-ref", text: "ttl.ts:9" });
    expect(md.slice(f!.offset, f!.offset + f!.length)).toBe("ttl.ts:9");
    expect(f!.column).toBe("- 🚀🚀 Changing the session TTL (see `".length + 1);
  });

  it("sorts findings by offset and names the section, unknown ones included", () => {
    const md = CLEAN.replace("### Progress\n- Fresh start: nothing implemented yet", "### Risks\n- the clock check in `clock.ts:7` drifts\n\n### Progress\n- started on line 3");
    const v = validatePacket(md);
    expect(v.findings.map((f) => [f.rule, f.section])).toEqual([
      ["file-line-ref", "Risks"],
      ["line-number-ref", "Progress"],
    ]);
    const offsets = validatePacket(FAILING).findings.map((f) => f.offset);
    expect(offsets).toEqual([...offsets].sort((a, b) => a - b));
  });
});

describe("suggestions", () => {
  it("apply mechanically: each one, put in place, clears its finding", () => {
    const v = validatePacket(FAILING);
    for (const f of v.findings.filter((x) => x.suggestion !== undefined)) {
      const fixed = FAILING.slice(0, f.offset) + f.suggestion + FAILING.slice(f.offset + f.length);
      const after = validatePacket(fixed)
        .findings.filter((x) => x.line === f.line)
        .map((x) => x.rule);
      // The shape-verb rewrite is a prompt: the author still has to pick the verb (a WARN until then).
      expect(after, `${f.rule} at line ${f.line}`).toEqual(f.rule === "ac-shape-verb" ? ["ac-verb-not-whitelisted"] : []);
    }
    expect(v.findings.filter((x) => x.suggestion !== undefined).map((x) => [x.rule, x.suggestion])).toEqual([
      ["file-line-ref", "session-store.ts"],
      ["line-number-ref", ""],
      ["ac-shape-verb", "[behaviour verb] `Session.expiresAt` for every session"],
      ["ac-verb-not-whitelisted", "returns 401 for revoked sessions"],
    ]);
  });
});

describe("emittable (the HARD-GATE)", () => {
  const blockers: [string, (md: string) => string][] = [
    ["file-line-ref", (md) => md.replace("- Changing the session TTL", "- Changing `ttl.ts:12`")],
    ["line-number-ref", (md) => md.replace("- Changing the session TTL", "- Changing the TTL on line 12")],
    ["path-bullet-outside-files-touched", (md) => md.replace("- Changing the session TTL", "- src/auth/ttl.ts")],
    ["missing-out-of-scope", (md) => edit(md, drop("out-of-scope"))],
    ["missing-type-surface", (md) => edit(md, drop("type-surface"))],
    ["ac-shape-verb", (md) => md.replace("- [ ] logs one", "- [ ] exists one")],
    ["missing-task", (md) => md.replace(/\*\*Task\*\*: [^\n]*/, "**Task**:")],
    ["missing-acceptance", (md) => edit(md, drop("acceptance"))],
  ];

  it.each(blockers)("is false with a %s BLOCK", (rule, make) => {
    const md = make(CLEAN);
    const v = validatePacket(md);
    expect(v.findings.filter((f) => f.tier === "BLOCK").map((f) => f.rule)).toEqual([rule]);
    expect(v.emittable).toBe(false);
  });

  const warnings: [string, (md: string) => string][] = [
    ["narrative-path", (md) => md.replace("- Changing the session TTL", "- Changing the TTL in lib/auth/ttl.ts")],
    ["files-touched-annotation", (md) => md.replace(" (SessionStore, SessionStore.touch)", "")],
    ["ac-verb-not-whitelisted", (md) => md.replace("- [ ] logs one", "- [ ] writes one")],
    ["out-of-scope-empty", (md) => edit(md, (d) => ({ ...d, sections: d.sections.map((s) => (s.key === "out-of-scope" ? { ...s, body: "" } : s)) }))],
  ];

  it.each(warnings)("stays true with a %s WARN only", (rule, make) => {
    const v = validatePacket(make(CLEAN));
    expect(v.findings.map((f) => `${f.tier} ${f.rule}`)).toEqual([`WARN ${rule}`]);
    expect(v.emittable).toBe(true);
  });
});

describe("completeness and warnings", () => {
  it("is minimal without a task or without acceptance criteria", () => {
    expect(validatePacket(edit(CLEAN, drop("acceptance"))).completeness).toBe("minimal");
    expect(validatePacket(CLEAN.replace(/\*\*Task\*\*: [^\n]*/, "**Task**:")).completeness).toBe("minimal");
  });

  it("is partial when Constraints or Already Tried is missing, and says what is missing", () => {
    for (const key of ["constraints", "already-tried"]) {
      const v = validatePacket(edit(CLEAN, drop(key)));
      expect(v.completeness).toBe("partial");
      expect(v.emittable).toBe(true);
      expect(v.warnings).toHaveLength(1);
      expect(v.warnings[0]).toContain(key === "constraints" ? "### Constraints" : "### Already Tried");
    }
  });

  it("is partial when a mandatory section is missing", () => {
    expect(validatePacket(edit(CLEAN, drop("out-of-scope"))).completeness).toBe("partial");
    expect(validatePacket(edit(CLEAN, drop("type-surface"))).completeness).toBe("partial");
  });

  it("counts template placeholders as missing, so a fresh template is minimal", () => {
    const v = validatePacket(PACKET_TEMPLATE);
    expect(v.completeness).toBe("minimal");
    // Its Out of scope holds only placeholders (each a BLOCK): present, so the section itself only warns.
    expect(v.warnings.map((w) => w.slice(0, w.indexOf(":")))).toEqual([
      "No constraints (### Constraints)",
      "No failed attempts (### Already Tried)",
      "No decisions (### Decisions Made)",
      "No **Scope**",
      "out-of-scope-empty (line 29)",
    ]);
  });

  it("puts WARN findings in warnings as text, and no BLOCK", () => {
    const v = validatePacket(FAILING);
    expect(v.warnings.filter((w) => w.startsWith("narrative-path (line "))).toHaveLength(2);
    expect(v.warnings.some((w) => w.includes("file-line-ref"))).toBe(false);
  });
});

describe("input", () => {
  it("throws a WorkbenchError for input that is not a string", () => {
    let caught: unknown;
    try {
      validatePacket(undefined as unknown as string);
    } catch (e) {
      caught = e;
    }
    expect(isWorkbenchError(caught) && caught.code).toBe("INVALID_INPUT");
  });

  it("validates an empty text as a minimal packet that cannot be emitted", () => {
    const v = validatePacket("");
    expect(v).toMatchObject({ kind: "packet", token_estimate: 0, completeness: "minimal", emittable: false });
    expect(v.findings.map((f) => f.rule).sort()).toEqual(["missing-acceptance", "missing-heading", "missing-out-of-scope", "missing-task"]);
  });
});

describe("schemas", () => {
  it("describe every field, and accept what the library produces", async () => {
    const { packetDocumentSchema, packetFindingSchema, validationResultSchema: result, validatePacketInput } = await import("../../../lib/packets/schemas");
    for (const schema of [packetDocumentSchema, packetFindingSchema, result, validatePacketInput]) {
      for (const [name, field] of Object.entries(schema.shape)) expect((field as { description?: string }).description, name).toBeTruthy();
    }
    for (const md of [CLEAN, FAILING, BRIEF]) expect(packetDocumentSchema.parse(parsePacket(md))).toEqual(parsePacket(md));
    expect(validatePacketInput.safeParse({ markdown: "x".repeat(200_001) }).success).toBe(false);
  });
});
