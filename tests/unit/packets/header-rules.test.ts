import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parsePacket, renderPacket, validatePacket, type PacketDocument, type PacketFinding } from "../../../lib/packets";

const fixture = (name: string) => fs.readFileSync(path.resolve(import.meta.dirname, "../../fixtures/packets", name), "utf8");
const CLEAN = fixture("clean-packet.md");
const BRIEF = fixture("clean-brief.md");

function edit(md: string, f: (d: PacketDocument) => PacketDocument): string {
  return renderPacket(f(parsePacket(md)));
}
const setField = (key: string, value: string) => (d: PacketDocument) => ({ ...d, fields: d.fields.map((f) => (f.key === key ? { ...f, value } : f)) });

function findings(md: string, rule: string): PacketFinding[] {
  const all = validatePacket(md).findings;
  for (const f of all) expect(md.slice(f.offset, f.offset + f.length)).toBe(f.text);
  return all.filter((f) => f.rule === rule);
}

describe("task-not-verb-led (WARN)", () => {
  it.each([
    ["a subject", "The session store should refresh expired sessions"],
    ["a noun phrase", "Session timeout bug that logs users out"],
    ["a code span", "`SessionStore` refresh on expiry"],
    ["a question", "Why do sessions expire after 30 minutes?"],
    ["a number", "401s after 30 minutes"],
  ])("warns on a task led by %s, at the task's text", (_name, task) => {
    const md = edit(CLEAN, setField("task", task));
    const [f, ...rest] = findings(md, "task-not-verb-led");
    expect(rest).toEqual([]);
    expect(f).toMatchObject({ tier: "WARN", text: task, line: 3, section: null });
    expect(f!.suggestion).toBeUndefined();
    expect(validatePacket(md).emittable).toBe(true);
    expect(validatePacket(md).warnings.some((w) => w.startsWith("task-not-verb-led"))).toBe(true);
  });

  it("suggests the imperative for a gerund or past form of a known verb", () => {
    const [f] = findings(edit(CLEAN, setField("task", "Refreshing expired sessions transparently")), "task-not-verb-led");
    expect(f!.suggestion).toBe("Refresh expired sessions transparently");
    const [g] = findings(edit(CLEAN, setField("task", "Fixed the logout after 30 minutes")), "task-not-verb-led");
    expect(g!.suggestion).toBe("Fix the logout after 30 minutes");
  });

  it.each([
    ["an imperative", "Refresh expired sessions"],
    ["a behaviour verb of the seed's whitelist", "Rejects expired invitations with 410"],
    ["the base of a whitelisted verb", "Cache the provider's public keys"],
    ["emphasis", "**Persist** user export jobs"],
    ["a re- prefix", "Re-enable the nightly export"],
    ["an -ize verb", "Canonicalize session ids"],
    ["a third-person verb", "Fixes the logout after 30 minutes"],
  ])("accepts a task led by %s", (_name, task) => {
    expect(findings(edit(CLEAN, setField("task", task)), "task-not-verb-led")).toEqual([]);
  });

  it("leaves briefs, an empty task and the template's placeholder to the other rules", () => {
    expect(findings(BRIEF.replace("Let skills declare", "The skills declare"), "task-not-verb-led")).toEqual([]);
    expect(findings(edit(CLEAN, setField("task", "")), "task-not-verb-led")).toEqual([]);
    expect(findings(edit(CLEAN, setField("task", "[One-line behavioral description, verb-led]")), "task-not-verb-led")).toEqual([]);
  });
});

describe("scope-path (WARN)", () => {
  it("warns on each path in **Scope** that narrative-path does not already cover", () => {
    const md = edit(CLEAN, setField("scope", "SessionStore, `packages/auth/session.ts`, middleware.ts and ./config"));
    expect(findings(md, "scope-path").map((f) => [f.tier, f.text, f.line])).toEqual([
      ["WARN", "`packages/auth/session.ts`", 5],
      ["WARN", "middleware.ts", 5],
      ["WARN", "./config", 5],
    ]);
    expect(validatePacket(md).emittable).toBe(true);
  });

  it("checks continuation lines, and leaves src/lib/app paths to narrative-path (one warning each)", () => {
    const md = edit(CLEAN, setField("scope", "SessionStore,\n  tests/auth/fixtures/, src/auth/"));
    expect(findings(md, "scope-path").map((f) => [f.text, f.line])).toEqual([["tests/auth/fixtures/", 6]]);
    expect(findings(md, "narrative-path").map((f) => f.text)).toEqual(["src/auth/"]);
  });

  it("accepts type and module names, and the template's placeholder", () => {
    expect(findings(edit(CLEAN, setField("scope", "SessionStore, AuthMiddleware.handle, TokenRefresher (read/write), Node.auth")), "scope-path")).toEqual([]);
    expect(findings(edit(CLEAN, setField("scope", "[type names / module names — NOT file paths]")), "scope-path")).toEqual([]);
  });
});
