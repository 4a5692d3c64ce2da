/**
 * Each rule's tier, and the seed line it comes from: the seed's HARD-GATE, smell-test table,
 * Constraints and the brief's BLOCK checks refuse an emission; its Self-Validation list,
 * Output Format and Sharp Edges name things to fix (WARN). The reference's own worked
 * examples (Rune-kit/rune, skills/context-pack/references: agent-brief.md's bug and
 * enhancement briefs, brief-template.md's good packet, copied verbatim into
 * tests/fixtures/packets/reference-*.md) must be emittable.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { countTokens } from "../../../lib/core/tokens";
import { parsePacket, renderPacket, RULE_IDS, seedRefFor, seedRefText, validatePacket, type FindingTier, type PacketDocument, type ValidateOptions } from "../../../lib/packets";

const fixtures = path.resolve(import.meta.dirname, "../../fixtures");
const fixture = (name: string) => fs.readFileSync(path.join(fixtures, "packets", name), "utf8");
const CLEAN = fixture("clean-packet.md");
const BRIEF = fixture("clean-brief.md");
const SEED_LINES = fs.readFileSync(path.join(fixtures, "seeds", "001_75042626957dd52a.txt"), "utf8").split("\n");

function edit(md: string, f: (d: PacketDocument) => PacketDocument): string {
  return renderPacket(f(parsePacket(md)));
}
const setBody = (key: string, body: string) => (d: PacketDocument) => ({ ...d, sections: d.sections.map((s) => (s.key === key ? { ...s, body } : s)) });
const drop = (key: string) => (d: PacketDocument) => ({ ...d, sections: d.sections.filter((s) => s.key !== key), fields: d.fields.filter((f) => f.key !== key) });
const withNotes = (md: string, notes: string) => `${md.trimEnd()}\n\n### Notes\n${notes}\n`;
const replaced = (md: string, from: string, to: string) => {
  expect(md, `fixture holds ${JSON.stringify(from)}`).toContain(from);
  return md.replace(from, to);
};

type Case = [rule: string, tier: FindingTier, seedLine: number, make: () => string, options?: ValidateOptions];

/** One way to trip each rule, with the tier it must have and the seed line behind that tier. */
const CASES: Case[] = [
  // Phase 4.5 smell tests (lines 72–75); BLOCK matches refuse by the HARD-GATE.
  ["file-line-ref", "BLOCK", 72, () => replaced(CLEAN, "- Changing the session TTL", "- Changing `ttl.ts:12`")],
  ["path-bullet-outside-files-touched", "BLOCK", 73, () => replaced(CLEAN, "- Changing the session TTL", "- src/auth/ttl.ts")],
  ["line-number-ref", "BLOCK", 74, () => replaced(CLEAN, "- Changing the session TTL", "- Changing the TTL on line 12")],
  ["narrative-path", "WARN", 75, () => replaced(CLEAN, "- Changing the session TTL", "- Changing the TTL in lib/auth/ttl.ts")],
  // HARD-GATE (line 77): a missing Out of scope heading, a missing Type Surface for tasks >= 300 tokens.
  ["missing-out-of-scope", "BLOCK", 77, () => edit(CLEAN, drop("out-of-scope"))],
  ["missing-type-surface", "BLOCK", 77, () => edit(CLEAN, drop("type-surface"))],
  ["missing-type-surface", "BLOCK", 77, () => edit(CLEAN, drop("type-surface")), { taskTokens: 300 }],
  // Below the gate's size, a task touching 3+ files is not single-cycle: the Sharp Edges' "non-trivial task".
  ["missing-type-surface", "WARN", 170, () => edit(CLEAN, drop("type-surface")), { taskTokens: 299 }],
  // Constraint 7: the heading is there, empty; "(none)" is allowed, so only a WARN asking for it.
  ["out-of-scope-empty", "WARN", 156, () => edit(CLEAN, setBody("out-of-scope", ""))],
  ["type-surface-names-no-type", "WARN", 49, () => edit(CLEAN, setBody("type-surface", "| contract | owner |\n|---|---|\n| the session things we talked about | auth |"))],
  // Constraint 1.
  ["missing-task", "BLOCK", 150, () => CLEAN.replace(/\*\*Task\*\*: [^\n]*/, "**Task**:")],
  ["missing-acceptance", "BLOCK", 150, () => edit(CLEAN, drop("acceptance"))],
  // Constraint 4; COMPRESS targets.
  ["token-cap", "BLOCK", 153, () => withNotes(CLEAN, "Padding:" + " word".repeat(2000))],
  ["token-target", "WARN", 56, () => withNotes(CLEAN, "Padding:" + " word".repeat(1000))],
  // Constraint 5.
  ["full-file-contents", "WARN", 154, () => withNotes(CLEAN, "```ts\n" + Array.from({ length: 25 }, (_, i) => `const a${i} = ${i};`).join("\n") + "\n```")],
  // Constraint 6: template text is not the parent's context.
  ["template-placeholder", "BLOCK", 155, () => replaced(CLEAN, "**Parent**: cook (Phase 3, implementation)", "**Parent**: [delegating skill]")],
  // Constraint 10: shape verbs are rejected.
  ["ac-shape-verb", "BLOCK", 159, () => replaced(CLEAN, "- [ ] logs one", "- [ ] exists one")],
  // Output Format: the whitelist; verbs off it "may still be valid".
  ["ac-verb-not-whitelisted", "WARN", 108, () => replaced(CLEAN, "- [ ] logs one", "- [ ] Truncates one")],
  ["ac-not-a-criterion", "WARN", 108, () => replaced(CLEAN, "- [ ] logs one", "All of these hold in staging first.\n- [ ] logs one")],
  ["ac-empty-criterion", "WARN", 181, () => replaced(CLEAN, "- [ ] logs one `session.refreshed` event per refresh", "- [ ]")],
  // Self-Validation: a check to fix, not a gate.
  ["files-touched-annotation", "WARN", 190, () => replaced(CLEAN, " (SessionStore, SessionStore.touch)", "")],
  // Output Format header lines.
  ["missing-heading", "WARN", 83, () => replaced(CLEAN, "## Context Packet\n\n", "")],
  ["task-not-verb-led", "WARN", 85, () => CLEAN.replace(/\*\*Task\*\*: [^\n]*/, "**Task**: The sessions expire too early for people mid-checkout")],
  ["scope-path", "WARN", 87, () => replaced(CLEAN, "**Scope**: SessionStore, AuthMiddleware, TokenRefresher", "**Scope**: SessionStore, `config/session.yaml`")],
  // The agent brief's additional BLOCK checks (lines 133–136).
  ["brief-category", "BLOCK", 133, () => edit(BRIEF, drop("category"))],
  ["brief-current-desired", "BLOCK", 134, () => edit(BRIEF, drop("current-behavior"))],
  ["brief-ac-independent", "BLOCK", 135, () => replaced(BRIEF, "- [ ] persists a start entry and a finish entry for every scheduled run", "- [ ] persists a start entry and logs a finish entry for every scheduled run")],
  ["brief-key-interfaces-paths", "BLOCK", 136, () => edit(BRIEF, setBody("key-interfaces", "- `config/schedule.yaml` — the schedule file\n- `SkillConfig` — gains an optional `schedule: CronExpression` field"))],
];

describe("each rule's tier, with the seed line it comes from", () => {
  it.each(CASES.map((c) => [`${c[0]} ${c[1]}${c[4] ? ` (taskTokens ${c[4].taskTokens})` : ""}`, ...c] as const))("%s", (_name, rule, tier, line, make, options) => {
    const md = make();
    const v = validatePacket(md, options);
    const hits = v.findings.filter((f) => f.rule === rule);
    expect(hits.length, JSON.stringify(v.findings.map((f) => `${f.tier} ${f.rule}`))).toBeGreaterThan(0);
    for (const f of hits) {
      expect(f.tier).toBe(tier);
      expect(f.seedRef).toEqual(seedRefFor(rule, tier));
      expect(f.seedRef.line).toBe(line);
      expect(md.slice(f.offset, f.offset + f.length)).toBe(f.text);
    }
    // Each case trips only its own problem: a WARN leaves the packet emittable, a BLOCK refuses it.
    expect(v.findings.filter((f) => f.tier === "BLOCK" && f.rule !== rule)).toEqual([]);
    expect(v.emittable).toBe(tier === "WARN");
  });

  it("covers every rule the validator reports", () => {
    expect(new Set(CASES.map((c) => c[0]))).toEqual(new Set(RULE_IDS));
  });

  it("quotes the seed's own words at the line it names", () => {
    for (const [rule, tier] of CASES) {
      const ref = seedRefFor(rule, tier);
      expect(SEED_LINES[ref.line - 1], `${rule} ${tier}: seed line ${ref.line}`).toContain(ref.quote);
    }
    expect(seedRefText(seedRefFor("missing-out-of-scope", "BLOCK"))).toBe("seed 001 line 77 (HARD-GATE)");
  });

  it("refuses to report a rule without a seed line", () => {
    expect(() => seedRefFor("no-such-rule", "BLOCK")).toThrow(/No seed reference/);
  });
});

describe("the reference's own worked examples may be emitted", () => {
  const warns = (md: string) =>
    validatePacket(md)
      .findings.map((f) => `${f.tier} ${f.rule} ${f.text.split("\n")[0]}`)
      .sort();

  it("agent-brief.md's bug brief: its criteria lead with other words and a test file has no annotation, which only warn", () => {
    const md = fixture("reference-bug-brief.md");
    const v = validatePacket(md);
    expect(v).toMatchObject({ kind: "brief", emittable: true });
    expect(warns(md)).toEqual(
      [
        "WARN ac-verb-not-whitelisted Descriptions under 1024 chars are unchanged",
        "WARN ac-verb-not-whitelisted Descriptions over 1024 chars are truncated at the last word boundary before 1024 chars",
        'WARN ac-verb-not-whitelisted Truncated descriptions end with "..."',
        'WARN ac-verb-not-whitelisted Total length including "..." does not exceed 1024 chars',
        "WARN files-touched-annotation `compiler/__tests__/skill-description-quality.test.js` — add coverage",
      ].sort(),
    );
  });

  it("the same bug brief with the criteria written as behaviour verbs off the whitelist (Truncates, Appends, Handles)", () => {
    const md = fixture("reference-bug-brief.md").replace(
      /\*\*Acceptance criteria:\*\*\n(?:- \[ \] .*\n)+/,
      [
        "**Acceptance criteria:**",
        "- [ ] Truncates a description over 1024 chars at the last word boundary before 1024 chars",
        '- [ ] Appends "..." to a truncated description, keeping the total within 1024 chars',
        "- [ ] Handles a description under 1024 chars by returning it unchanged",
        "",
      ].join("\n"),
    );
    const v = validatePacket(md);
    expect(v.emittable).toBe(true);
    expect(v.findings.filter((f) => f.rule === "ac-verb-not-whitelisted").map((f) => [f.tier, f.text.split(" ")[0]])).toEqual([
      ["WARN", "Truncates"],
      ["WARN", "Appends"],
      ["WARN", "Handles"],
    ]);
  });

  it("agent-brief.md's enhancement brief", () => {
    const v = validatePacket(fixture("reference-enhancement-brief.md"));
    expect(v.findings.filter((f) => f.tier === "BLOCK")).toEqual([]);
    expect(v.emittable).toBe(true);
  });

  it("brief-template.md's good packet", () => {
    const md = fixture("reference-good-packet.md");
    const v = validatePacket(md);
    expect(v).toMatchObject({ kind: "packet", emittable: true });
    expect(warns(md)).toEqual(["WARN files-touched-annotation `src/db/migrations/sessions.sql` (sessions table) — schema"]);
  });
});

describe("the task size (taskTokens) behind the Type Surface gate", () => {
  const noTypeSurface = edit(CLEAN, drop("type-surface"));

  it("falls back to the packet's own estimate and says so", () => {
    const v = validatePacket(noTypeSurface);
    expect(v).toMatchObject({ task_tokens: countTokens(noTypeSurface), task_tokens_source: "packet" });
    expect(v.task_tokens).toBeGreaterThanOrEqual(300);
    expect(v.findings.find((f) => f.rule === "missing-type-surface")!.message).toContain("no task size was given");
  });

  it("uses the caller's size when given, at the 300-token boundary, whatever the packet's own size", () => {
    const at = validatePacket(noTypeSurface, { taskTokens: 300 });
    expect(at).toMatchObject({ task_tokens: 300, task_tokens_source: "caller", emittable: false });
    expect(at.findings.find((f) => f.rule === "missing-type-surface")!.message).toContain("the task is 300 tokens, as given");
    const below = validatePacket(noTypeSurface, { taskTokens: 299 });
    expect(below).toMatchObject({ task_tokens: 299, task_tokens_source: "caller", emittable: true });
    // A small packet delegating a large task still needs its spine.
    const small = "## Context Packet\n\n**Task**: Reject expired invitations\n\n### Acceptance Criteria\n- [ ] rejects an invitation past its expiry with 410\n\n### Out of scope\n- (none)\n";
    expect(countTokens(small)).toBeLessThan(300);
    expect(validatePacket(small).emittable).toBe(true);
    expect(validatePacket(small, { taskTokens: 1200 })).toMatchObject({ emittable: false, task_tokens: 1200 });
    expect(validatePacket(small, { taskTokens: null })).toMatchObject({ emittable: true, task_tokens_source: "packet" });
  });

  it("leaves every other rule alone", () => {
    const strip = (v: ReturnType<typeof validatePacket>) => v.findings.filter((f) => f.rule !== "missing-type-surface");
    for (const md of [CLEAN, fixture("failing-packet.md"), BRIEF]) expect(strip(validatePacket(md, { taskTokens: 0 }))).toEqual(strip(validatePacket(md, { taskTokens: 5000 })));
  });

  it.each([[-1], [1.5], [Number.NaN], [10_000_001]])("refuses a task size of %s", (n) => {
    expect(() => validatePacket(CLEAN, { taskTokens: n })).toThrow(expect.objectContaining({ code: "INVALID_INPUT" }));
  });
});
