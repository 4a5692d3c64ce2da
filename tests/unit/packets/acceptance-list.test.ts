import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parsePacket, renderPacket, validatePacket, type PacketFinding } from "../../../lib/packets";

const fixture = (name: string) => fs.readFileSync(path.resolve(import.meta.dirname, "../../fixtures/packets", name), "utf8");
const CLEAN = fixture("clean-packet.md");
const BRIEF = fixture("clean-brief.md");

/** The clean packet (or brief) with this Acceptance Criteria body. */
function withAcceptance(body: string, md = CLEAN): string {
  const d = parsePacket(md);
  return renderPacket({ ...d, sections: d.sections.map((s) => (s.key === "acceptance" ? { ...s, body } : s)) });
}

function acFindings(md: string): PacketFinding[] {
  const all = validatePacket(md).findings;
  for (const f of all) expect(md.slice(f.offset, f.offset + f.length)).toBe(f.text);
  return all.filter((f) => f.rule.startsWith("ac-") || f.rule === "missing-acceptance" || f.rule === "brief-ac-independent");
}
const brief = (f: PacketFinding[]) => f.map((x) => [x.tier, x.rule, x.text]);

describe("numbered criteria", () => {
  it("accepts `1.` and `1)` markers, with or without a checkbox", () => {
    const md = withAcceptance("1. rejects a revoked session with 401\n2) persists the extended expiry\n3. [ ] logs one `session.refreshed` event");
    expect(acFindings(md)).toEqual([]);
    expect(validatePacket(md)).toMatchObject({ emittable: true, completeness: "full" });
  });

  it("checks numbered criteria like bulleted ones", () => {
    const md = withAcceptance("1. rejects a revoked session with 401\n2. Returned 200 for a fresh session");
    expect(acFindings(md).map((f) => [f.rule, f.text, f.suggestion])).toEqual([["ac-verb-not-whitelisted", "Returned 200 for a fresh session", "returns 200 for a fresh session"]]);
  });

  it("counts numbered items as criteria for missing-acceptance", () => {
    const d = parsePacket(withAcceptance("1. rejects a revoked session with 401"));
    expect(acFindings(renderPacket(d)).filter((f) => f.rule === "missing-acceptance")).toEqual([]);
  });
});

describe("only top-level items are criteria", () => {
  it("does not block nested detail bullets (spaces or a tab), nor wrapped text", () => {
    const md = withAcceptance(
      [
        "- [ ] rejects a request whose session was revoked with 401",
        "  - the body names the revoked session",
        "  - see the audit trail for who revoked it",
        "- [ ] persists the extended expiry before the response is sent,",
        "  even when the provider answers slowly",
        "1. retries the provider refresh once",
        "   - with the same idempotency key",
        "-\tlogs one refresh event",
        "\t- for each refresh",
      ].join("\n"),
    );
    expect(acFindings(md)).toEqual([]);
    expect(validatePacket(md).emittable).toBe(true);
  });

  it("still checks every top-level item after nested ones", () => {
    const md = withAcceptance("- [ ] rejects a revoked session\n  - detail\n- [ ] the session is refreshed");
    expect(brief(acFindings(md))).toEqual([["WARN", "ac-verb-not-whitelisted", "the session is refreshed"]]);
  });

  it("does not take a brief's nested details for chained criteria", () => {
    const md = withAcceptance("- [ ] accepts a valid schedule\n  - and then logs it as in criterion 2", BRIEF);
    expect(acFindings(md)).toEqual([]);
  });
});

describe("ac-not-a-criterion (WARN)", () => {
  it("flags prose lines in the section, each at its text", () => {
    const md = withAcceptance("All of these must hold in staging first.\n\n- [ ] rejects a revoked session with 401\nWe will know it when we see it.");
    expect(brief(acFindings(md))).toEqual([
      ["WARN", "ac-not-a-criterion", "All of these must hold in staging first."],
      ["WARN", "ac-not-a-criterion", "We will know it when we see it."],
    ]);
    expect(validatePacket(md).emittable).toBe(true);
  });

  it("flags a section of prose only as missing criteria (BLOCK) and as prose (WARN)", () => {
    const md = withAcceptance("We will know it when we see it.");
    expect(brief(acFindings(md))).toEqual([
      ["BLOCK", "missing-acceptance", "### Acceptance Criteria"],
      ["WARN", "ac-not-a-criterion", "We will know it when we see it."],
    ]);
  });

  it("flags text after a brief's label", () => {
    const md = BRIEF.replace("**Acceptance criteria:**\n", "**Acceptance criteria:** all must pass in CI\n");
    expect(brief(acFindings(md))).toEqual([["WARN", "ac-not-a-criterion", "all must pass in CI"]]);
  });

  it("leaves the clean fixtures alone", () => {
    expect(acFindings(CLEAN)).toEqual([]);
    expect(acFindings(BRIEF)).toEqual([]);
  });
});
