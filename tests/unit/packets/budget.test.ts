import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { countTokens } from "../../../lib/core/tokens";
import { parsePacket, renderPacket, TOKEN_BUDGET, validatePacket, type PacketFinding } from "../../../lib/packets";
import { budgetFindings } from "../../../lib/packets/budget-rules";
import { findingFactory } from "../../../lib/packets/findings";
import { outline } from "../../../lib/packets/outline";

const fixture = (name: string) => fs.readFileSync(path.resolve(import.meta.dirname, "../../fixtures/packets", name), "utf8");
const CLEAN = fixture("clean-packet.md");

function withDecisions(n: number): string {
  const d = parsePacket(CLEAN);
  const extra = Array.from({ length: n }, (_, i) => `- Retry policy ${i + 1}: chose capped exponential backoff over fixed delays because the provider throttles bursts from region ${i + 1}`);
  return renderPacket({ ...d, sections: d.sections.map((s) => (s.key === "decisions" ? { ...s, body: [s.body, ...extra].join("\n") } : s)) });
}

/** The largest clean packet within the budget, and the same with one more decision. */
function aroundTheCap(): { under: string; over: string } {
  let n = 0;
  while (countTokens(withDecisions(n + 1)) <= TOKEN_BUDGET) n++;
  return { under: withDecisions(n), over: withDecisions(n + 1) };
}

const rules = (fs_: PacketFinding[]) => fs_.map((f) => `${f.tier} ${f.rule}`);

describe("token-cap (BLOCK over 2,000 tokens)", () => {
  const { under, over } = aroundTheCap();

  it("blocks a generated packet over 2,000 tokens", () => {
    const v = validatePacket(over);
    expect(v.token_estimate).toBeGreaterThan(TOKEN_BUDGET);
    expect(v.token_estimate).toBe(countTokens(over));
    expect(rules(v.findings)).toEqual(["BLOCK token-cap"]);
    expect(v.findings[0]!.message).toContain(String(v.token_estimate));
    expect(v.emittable).toBe(false);
  });

  it("lets a packet just under the cap through, with the complex-task target as a WARN", () => {
    const v = validatePacket(under);
    expect(v.token_estimate).toBeLessThanOrEqual(TOKEN_BUDGET);
    expect(v.token_estimate).toBeGreaterThan(TOKEN_BUDGET - 60);
    expect(rules(v.findings)).toEqual(["WARN token-target"]);
    expect(v.findings[0]!.message).toContain("1500");
    expect(v.emittable).toBe(true);
  });

  it("puts the boundary at 2,000: equal passes, one more blocks", () => {
    const o = outline(CLEAN);
    const at = findingFactory(o);
    expect(rules(budgetFindings(o, at, 2000))).toEqual(["WARN token-target"]);
    expect(rules(budgetFindings(o, at, 2001))).toEqual(["BLOCK token-cap"]);
  });
});

describe("token-target (WARN at or over the COMPRESS target)", () => {
  it("uses 500 for a simple task (fewer than 3 files) and 1500 for a complex one", () => {
    const o = outline(CLEAN.replace(/- `src\/auth\/token-refresher.ts`[^\n]*\n/, ""));
    const at = findingFactory(o);
    expect(rules(budgetFindings(o, at, 499))).toEqual([]);
    const [simple] = budgetFindings(o, at, 500);
    expect(simple).toMatchObject({ tier: "WARN", rule: "token-target" });
    expect(simple!.message).toContain("simple");
    const c = outline(CLEAN);
    expect(rules(budgetFindings(c, findingFactory(c), 1499))).toEqual([]);
    expect(rules(budgetFindings(c, findingFactory(c), 1500))).toEqual(["WARN token-target"]);
  });

  it("reports the figure for a real packet over the simple target", () => {
    const md = CLEAN.replace(/- `src\/auth\/token-refresher.ts`[^\n]*\n/, "").replace(
      "- Fresh start: nothing implemented yet",
      "- Middleware refresh drafted; expiry persistence and the revoked-session check are still open",
    );
    const v = validatePacket(md);
    expect(v.token_estimate).toBeGreaterThanOrEqual(500);
    const [f] = v.findings.filter((x) => x.rule === "token-target");
    expect(f!.message).toContain(`${v.token_estimate} tokens`);
    expect(v.warnings.some((w) => w.startsWith("token-target"))).toBe(true);
  });
});

describe("full-file-contents (WARN, fenced block over 20 lines)", () => {
  const withBlock = (lines: number) => {
    const d = parsePacket(CLEAN);
    const code = ["```ts", ...Array.from({ length: lines }, (_, i) => `const v${i} = ${i};`), "```"].join("\n");
    return renderPacket({ ...d, sections: d.sections.map((s) => (s.key === "type-surface" ? { ...s, body: `${s.body}\n\n${code}` } : s)) });
  };

  it("warns about a 21-line block, highlighting it from fence to fence", () => {
    const md = withBlock(21);
    const [f, ...rest] = validatePacket(md).findings.filter((x) => x.rule === "full-file-contents");
    expect(rest).toEqual([]);
    expect(f).toMatchObject({ tier: "WARN", section: "Type Surface (durable)" });
    expect(f!.text.startsWith("```ts\nconst v0 = 0;")).toBe(true);
    expect(f!.text.endsWith("const v20 = 20;\n```")).toBe(true);
    expect(md.slice(f!.offset, f!.offset + f!.length)).toBe(f!.text);
  });

  it("accepts a 20-line excerpt", () => {
    expect(validatePacket(withBlock(20)).findings.filter((x) => x.rule === "full-file-contents")).toEqual([]);
  });
});
