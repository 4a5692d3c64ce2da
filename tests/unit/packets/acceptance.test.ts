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
    expect(SHAPE_VERBS).toEqual(["is defined", "has property", "exists", "should be present"]);
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

describe("ac-shape-verb (BLOCK)", () => {
  it.each([
    ["is defined", "`Session.expiresAt` is defined for every session"],
    ["has property", "Session has property expiresAt"],
    ["exists", "a refresh endpoint exists"],
    ["should be present", "the refresh token should be present"],
  ])("rejects %s", (phrase, criterion) => {
    const md = withCriteria(criterion);
    const [f, ...rest] = acFindings(md);
    expect(rest).toEqual([]);
    expect(f).toMatchObject({ rule: "ac-shape-verb", tier: "BLOCK", text: criterion, section: "Acceptance Criteria" });
    expect(f!.message).toContain(phrase);
    expect(validatePacket(md).emittable).toBe(false);
  });

  it("suggests a behaviour-verb prompt in place of the shape verb", () => {
    const [f] = acFindings(withCriteria("is defined X"));
    expect(f!.suggestion).toBe("[behaviour verb] X");
  });
});

describe("ac-verb-not-whitelisted (BLOCK)", () => {
  it("rejects a criterion led by a verb that is not listed, without a suggestion", () => {
    const [f] = acFindings(withCriteria("updates the cache after each write"));
    expect(f).toMatchObject({ rule: "ac-verb-not-whitelisted", tier: "BLOCK", text: "updates the cache after each write" });
    expect(f!.suggestion).toBeUndefined();
  });

  it("rejects a subject-led criterion: the verb must come first", () => {
    expect(acFindings(withCriteria("the API returns 404 for unknown ids")).map((f) => f.rule)).toEqual(["ac-verb-not-whitelisted"]);
  });

  it("rejects inflections (not listed by the seed) and suggests the listed form", () => {
    const fs_ = acFindings(withCriteria("returned 401 for revoked sessions", "Validate the payload", "times out after 30 s", "emitted once"));
    expect(fs_.map((f) => [f.rule, f.suggestion])).toEqual([
      ["ac-verb-not-whitelisted", "returns 401 for revoked sessions"],
      ["ac-verb-not-whitelisted", "validates the payload"],
      ["ac-verb-not-whitelisted", "times-out after 30 s"],
      ["ac-verb-not-whitelisted", "emits once"],
    ]);
  });

  it("rejects an empty criterion", () => {
    const md = CLEAN.replace("- [ ] logs one `session.refreshed` event per refresh", "- [ ]");
    const [f] = acFindings(md);
    expect(f).toMatchObject({ rule: "ac-verb-not-whitelisted", text: "- [ ]" });
  });

  it("makes the template's placeholder criteria fail", () => {
    const rules = acFindings(PACKET_TEMPLATE).map((f) => f.rule);
    expect(rules).toEqual(["ac-verb-not-whitelisted", "ac-verb-not-whitelisted"]);
  });
});
