import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BEHAVIOR_VERBS, PACKET_TEMPLATE, parsePacket, renderPacket, SHAPE_VERBS, validatePacket, type PacketFinding } from "../../../lib/packets";

const fixture = (name: string) => fs.readFileSync(path.resolve(import.meta.dirname, "../../fixtures/packets", name), "utf8");
const CLEAN = fixture("clean-packet.md");

/** The clean packet with these acceptance criteria. */
function withCriteria(...criteria: string[]): string {
  const d = parsePacket(CLEAN);
  return renderPacket({ ...d, sections: d.sections.map((s) => (s.key === "acceptance" ? { ...s, body: criteria.map((c) => `- [ ] ${c}`).join("\n") } : s)) });
}

function acFindings(md: string): PacketFinding[] {
  const all = validatePacket(md).findings;
  for (const f of all) expect(md.slice(f.offset, f.offset + f.length)).toBe(f.text);
  return all.filter((f) => f.rule.startsWith("ac-"));
}

describe("the behaviour-verb whitelist", () => {
  it("has the 16 verbs of durability-rules.md plus emits, caches, invalidates, authenticates", () => {
    expect(BEHAVIOR_VERBS).toHaveLength(20);
    expect(BEHAVIOR_VERBS.slice(16)).toEqual(["emits", "caches", "invalidates", "authenticates"]);
    expect(BEHAVIOR_VERBS).toContain("times-out");
    expect(SHAPE_VERBS).toEqual(["is defined", "has property", "exists", "should be present", "should be defined", "should exist", "is exported", "is a", "is an"]);
  });

  it.each(BEHAVIOR_VERBS.map((v) => [v]))("accepts a criterion led by %s", (verb) => {
    const md = withCriteria(`${verb} the request within the agreed contract`);
    expect(acFindings(md)).toEqual([]);
    expect(validatePacket(md).emittable).toBe(true);
  });

  it("accepts a capitalised or emphasised verb, and a shape word later in a verb-led criterion", () => {
    expect(acFindings(withCriteria("Returns 404 for an unknown id", "**rejects** an empty name", "returns 404 when no session exists"))).toEqual([]);
  });
});

describe("ac-shape-verb (BLOCK: Constraint 10, shape verbs rejected)", () => {
  it.each([
    ["is defined", "`Session.expiresAt` is defined for every session"],
    ["has property", "Session has property expiresAt"],
    ["exists", "a refresh endpoint exists"],
    ["should be present", "the refresh token should be present"],
    // The reference's own examples of shape criteria (durability-rules.md, evals.md).
    ["should exist", "The new field should exist"],
    ["should be defined", "An error type should be defined"],
    ["is exported", "the type is exported"],
    ["is a", "`Session.expiresAt` is a Date"],
    ["is an", "the refresh result is an object"],
  ])("rejects %s", (phrase, criterion) => {
    const md = withCriteria(criterion);
    const [f, ...rest] = acFindings(md);
    expect(rest).toEqual([]);
    expect(f).toMatchObject({ rule: "ac-shape-verb", tier: "BLOCK", text: criterion, section: "Acceptance Criteria" });
    expect(f!.seedRef).toMatchObject({ line: 159, part: "Constraint 10" });
    expect(f!.message).toContain(phrase);
    expect(validatePacket(md).emittable).toBe(false);
  });

  it("rejects a shape phrase in the criterion's main clause, after a condition", () => {
    const [f] = acFindings(withCriteria("When a user logs in, a session row exists"));
    expect(f).toMatchObject({ rule: "ac-shape-verb", tier: "BLOCK" });
  });

  it("does not take a shape word inside a condition or a relative clause for the criterion's assertion (a WARN at most)", () => {
    for (const criterion of [
      // references/agent-brief.md, enhancement example
      'If a matching `.out-of-scope/` file already exists, the new issue is appended to its "Prior requests" list',
      "Handles ids that exist in both stores",
      "Truncates a name when the name is a duplicate",
    ]) {
      const fs_ = acFindings(withCriteria(criterion));
      expect(
        fs_.map((f) => [f.rule, f.tier]),
        criterion,
      ).toEqual([["ac-verb-not-whitelisted", "WARN"]]);
    }
  });

  it("suggests a behaviour-verb prompt in place of the shape verb", () => {
    const [f] = acFindings(withCriteria("is defined X"));
    expect(f!.suggestion).toBe("[behaviour verb] X");
  });
});

describe("ac-verb-not-whitelisted (WARN: verbs off the whitelist may still be valid)", () => {
  it.each([["Truncates descriptions over 1024 chars at the last word boundary"], ['Appends "..." to a truncated description'], ["Handles an empty description"], ["updates the cache after each write"]])(
    "warns on a criterion led by a behaviour verb that is not listed (%s), offering the whitelist; the packet may be emitted",
    (criterion) => {
      const md = withCriteria(criterion);
      const [f, ...rest] = acFindings(md);
      expect(rest).toEqual([]);
      expect(f).toMatchObject({ rule: "ac-verb-not-whitelisted", tier: "WARN", text: criterion });
      expect(f!.message).toContain("may still be valid");
      expect(f!.message).toContain(BEHAVIOR_VERBS.join(", "));
      expect(f!.suggestion).toBeUndefined();
      expect(f!.seedRef).toMatchObject({ line: 108, part: "Output Format (v2)" });
      expect(validatePacket(md).emittable).toBe(true);
    },
  );

  it("warns on a subject-led criterion: the verb should come first", () => {
    expect(acFindings(withCriteria("the API returns 404 for unknown ids")).map((f) => [f.rule, f.tier])).toEqual([["ac-verb-not-whitelisted", "WARN"]]);
  });

  it("warns on inflections (not listed by the seed) and suggests the listed form", () => {
    const fs_ = acFindings(withCriteria("returned 401 for revoked sessions", "Validate the payload", "times out after 30 s", "emitted once"));
    expect(fs_.map((f) => [f.rule, f.suggestion])).toEqual([
      ["ac-verb-not-whitelisted", "returns 401 for revoked sessions"],
      ["ac-verb-not-whitelisted", "validates the payload"],
      ["ac-verb-not-whitelisted", "times-out after 30 s"],
      ["ac-verb-not-whitelisted", "emits once"],
    ]);
  });

  it("warns on an empty criterion next to real ones", () => {
    const md = CLEAN.replace("- [ ] logs one `session.refreshed` event per refresh", "- [ ]");
    const [f, ...rest] = acFindings(md);
    expect(rest).toEqual([]);
    expect(f).toMatchObject({ rule: "ac-empty-criterion", tier: "WARN", text: "- [ ]" });
    expect(f!.seedRef).toMatchObject({ line: 181, part: "Self-Validation" });
    expect(validatePacket(md).emittable).toBe(true);
  });

  it("leaves the template's placeholder criteria to template-placeholder and missing-acceptance, which block", () => {
    expect(acFindings(PACKET_TEMPLATE)).toEqual([]);
    const blocks = validatePacket(PACKET_TEMPLATE).findings.filter((f) => f.tier === "BLOCK" && f.section === "Acceptance Criteria");
    expect(blocks.map((f) => f.rule)).toEqual(["missing-acceptance", "template-placeholder", "template-placeholder"]);
  });
});
