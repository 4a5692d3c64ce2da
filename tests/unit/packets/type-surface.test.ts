import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { countTokens } from "../../../lib/core/tokens";
import { parsePacket, renderPacket, TYPE_SURFACE_MIN_TOKENS, validatePacket, type PacketDocument, type PacketFinding } from "../../../lib/packets";

const fixture = (name: string) => fs.readFileSync(path.resolve(import.meta.dirname, "../../fixtures/packets", name), "utf8");
const CLEAN = fixture("clean-packet.md");
const BRIEF = fixture("clean-brief.md");

function edit(md: string, f: (d: PacketDocument) => PacketDocument): string {
  return renderPacket(f(parsePacket(md)));
}
const setBody = (key: string, body: string) => (d: PacketDocument) => ({ ...d, sections: d.sections.map((s) => (s.key === key ? { ...s, body } : s)) });
const drop = (key: string) => (d: PacketDocument) => ({ ...d, sections: d.sections.filter((s) => s.key !== key) });

function findings(md: string, rule: string): PacketFinding[] {
  const all = validatePacket(md).findings;
  for (const f of all) expect(md.slice(f.offset, f.offset + f.length)).toBe(f.text);
  return all.filter((f) => f.rule === rule);
}

describe("missing-type-surface: a Type Surface must name a type (HARD-GATE at 300+ tokens)", () => {
  it.each([["- (none)"], ["(none)"], ["TBD"], ["- TBD"], ["- TODO: list the types"], ["- n/a"], ["- …"], ["No new types"], ["1. TBD\n2. (none)"]])(
    "blocks a Type Surface of %j in a 300+ token packet, at its heading, and the packet is not full",
    (body) => {
      const md = edit(CLEAN, setBody("type-surface", body));
      expect(countTokens(md)).toBeGreaterThanOrEqual(TYPE_SURFACE_MIN_TOKENS);
      const [f, ...rest] = findings(md, "missing-type-surface");
      expect(rest).toEqual([]);
      expect(f).toMatchObject({ tier: "BLOCK", text: "### Type Surface (durable)", section: "Type Surface (durable)" });
      expect(f!.message).toContain("mandatory for tasks of 300+ tokens");
      const v = validatePacket(md);
      expect(v.emittable).toBe(false);
      expect(v.completeness).toBe("partial");
    },
  );

  it.each([
    ["a backticked identifier", "- `SessionStore` — where expiry lives"],
    ["Name {", "- Session { id: string; expiresAt: Date } — one login"],
    ["fn(", "- SessionStore.touch(id, expiresAt) — extends the expiry"],
    ["interface", "- interface RefreshPolicy — when to refresh"],
    ["type", "- type Expiry = Date | null"],
    ["CamelCase", "- TokenRefresher — provider round trip"],
    ["a fenced signature", "```ts\ninterface Session {\n  expiresAt: Date;\n}\n```"],
    ["a real entry next to (none)", "- (none) yet for the client\n- `Session { expiresAt: Date }` — one login"],
    ["a one-word type with its fields", "- Invitation (id, expires_at, status) — one invite"],
    ["a Rust path", "- Session::refresh — extends the expiry"],
    ["'No new types' that still names one", "No new types: reuses `Session { expiresAt: Date }`"],
  ])("accepts an entry naming a type or signature: %s", (_name, body) => {
    const md = edit(CLEAN, setBody("type-surface", body));
    expect(findings(md, "missing-type-surface")).toEqual([]);
    expect(validatePacket(md)).toMatchObject({ emittable: true, completeness: "full" });
  });

  it("only warns when written entries name no type it recognises (a notation it does not know must not stop an emission)", () => {
    const md = edit(CLEAN, setBody("type-surface", "| contract | owner |\n|---|---|\n| the session things we talked about | auth |"));
    expect(countTokens(md)).toBeGreaterThanOrEqual(TYPE_SURFACE_MIN_TOKENS);
    expect(findings(md, "missing-type-surface")).toEqual([]);
    expect(findings(md, "type-surface-names-no-type")).toMatchObject([{ tier: "WARN", text: "### Type Surface (durable)" }]);
    expect(validatePacket(md).emittable).toBe(true);
  });

  it("still lets a small single-cycle task say (none)", () => {
    const md =
      "## Context Packet\n\n**Task**: Reject expired invitations\n\n### Type Surface (durable)\n- (none)\n\n### Acceptance Criteria\n- [ ] rejects an invitation past its expiry with 410\n\n### Out of scope\n(none)\n";
    expect(countTokens(md)).toBeLessThan(TYPE_SURFACE_MIN_TOKENS);
    expect(findings(md, "missing-type-surface")).toEqual([]);
  });
});

/** A single-cycle packet without Type Surface, padded with a Notes section to exactly `tokens` tokens. */
function packetOf(tokens: number): string {
  const base = "## Context Packet\n\n**Task**: Reject expired invitations\n\n### Acceptance Criteria\n- [ ] rejects an invitation past its expiry with 410\n\n### Out of scope\n(none)\n\n### Notes\nPadding:";
  for (let n = 0; n < 400; n++) {
    const md = `${base}${" a".repeat(n)}\n`;
    const t = countTokens(md);
    if (t === tokens) return md;
    if (t > tokens) break;
  }
  throw new Error(`no padding gives exactly ${tokens} tokens`);
}

describe("the 300-token boundary (task >= 300 tokens)", () => {
  it("blocks a packet of exactly 300 tokens without Type Surface, and lets one of 299 through", () => {
    const at = packetOf(TYPE_SURFACE_MIN_TOKENS);
    const below = packetOf(TYPE_SURFACE_MIN_TOKENS - 1);
    expect(validatePacket(at).token_estimate).toBe(300);
    expect(validatePacket(below).token_estimate).toBe(299);
    expect(findings(at, "missing-type-surface")).toMatchObject([{ tier: "BLOCK" }]);
    expect(validatePacket(at).emittable).toBe(false);
    expect(findings(below, "missing-type-surface")).toEqual([]);
    expect(validatePacket(below).emittable).toBe(true);
  });

  it("blocks a (none) Type Surface at exactly 300 tokens too", () => {
    const md = packetOf(TYPE_SURFACE_MIN_TOKENS).replace("### Notes", "### Type Surface (durable)\n(none)\n\n### Notes");
    expect(findings(md, "missing-type-surface")).toMatchObject([{ tier: "BLOCK", text: "### Type Surface (durable)" }]);
  });
});

describe("a brief's Key interfaces (its Type Surface)", () => {
  it("blocks a 300+ token brief without Key interfaces", () => {
    const longer = setBody(
      "current-behavior",
      "Skills run only when a user invokes them. A skill that should run nightly needs an external cron job that calls the CLI, and nothing records whether that run happened. Operators learn about a missed run from the people who expected its output.",
    );
    const md = edit(BRIEF, (d) => drop("key-interfaces")(longer(d)));
    expect(countTokens(md)).toBeGreaterThanOrEqual(TYPE_SURFACE_MIN_TOKENS);
    expect(findings(md, "missing-type-surface")).toMatchObject([{ tier: "BLOCK", text: "## Agent Brief" }]);
    expect(validatePacket(md)).toMatchObject({ emittable: false, completeness: "partial" });
  });

  it.each([["- (none)"], ["(none)"], ["- TBD"]])("blocks Key interfaces of %j in a 300+ token brief", (body) => {
    const md = edit(BRIEF, setBody("key-interfaces", body));
    expect(countTokens(md)).toBeGreaterThanOrEqual(TYPE_SURFACE_MIN_TOKENS);
    expect(findings(md, "missing-type-surface")).toMatchObject([{ tier: "BLOCK", text: "**Key interfaces:**" }]);
    expect(validatePacket(md)).toMatchObject({ emittable: false, completeness: "partial" });
  });

  it("blocks an inline **Key interfaces:** (none), and a small brief with it is not full", () => {
    const inline = BRIEF.replace(/\*\*Key interfaces:\*\*\n(?:- .*\n)+/, "**Key interfaces:** (none)\n");
    expect(inline).not.toBe(BRIEF);
    expect(findings(inline, "missing-type-surface")).toMatchObject([{ tier: "BLOCK" }]);
    const small =
      "## Agent Brief\n\n**Category:** bug\n**Summary:** Exports stop after a restart\n\n**Current behavior:**\nQueued exports vanish.\n\n**Desired behavior:**\nThey resume.\n\n**Key interfaces:** (none)\n\n**Acceptance criteria:**\n- [ ] persists a queued export across a restart\n\n**Out of scope:** (none)\n";
    expect(countTokens(small)).toBeLessThan(TYPE_SURFACE_MIN_TOKENS);
    expect(validatePacket(small).completeness).toBe("partial");
  });
});

describe("Out of scope (none) on the heading line", () => {
  it("accepts `### Out of scope (none)` with no body", () => {
    const md = edit(CLEAN, (d) => ({ ...d, sections: d.sections.map((s) => (s.key === "out-of-scope" ? { ...s, title: "Out of scope (none)", body: "" } : s)) }));
    expect(md).toContain("### Out of scope (none)\n");
    expect(findings(md, "missing-out-of-scope")).toEqual([]);
    expect(validatePacket(md)).toMatchObject({ emittable: true, completeness: "full" });
  });

  it("still warns on an empty `### Out of scope` heading (present, but without - (none))", () => {
    expect(findings(edit(CLEAN, setBody("out-of-scope", "")), "out-of-scope-empty")).toMatchObject([{ tier: "WARN" }]);
  });
});
