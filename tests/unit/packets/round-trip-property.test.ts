import { describe, expect, it } from "vitest";
import { parsePacket, renderPacket } from "../../../lib/packets";
import { mulberry32 as rng } from "../../helpers/prng";

/**
 * Lines that exercise the parser's branches: kind headings, fields of either label style
 * (empty, inline, continued), known and unknown sections at levels 1-4, a brief's labels,
 * lists, indentation, tabs, CRLF, blank and whitespace-only lines, and fenced blocks hiding
 * labels and headings. Fenced blocks come whole (opened and closed, no blank line inside):
 * an unclosed fence swallows the rest of the text, and the untitled section's lines move
 * after the fields when rendered, so a fence left open around them cannot keep its extent.
 */
const LINES = [
  "## Context Packet",
  "## Agent Brief",
  "## context packet",
  "# Handoff",
  "## Appendix",
  "**Task**: Refresh expired sessions",
  "**Task**:",
  "**Task**:   ",
  "**Parent**: cook",
  "**Scope**: SessionStore,",
  "**Category:** bug",
  "**Summary:** Exports stop",
  "**Summary:**",
  "**Current behavior:**",
  "**Desired behavior:** resumes",
  "**Key interfaces:** `SkillConfig`",
  "**Out of scope:** (none)",
  "**Notes:**",
  "### Type Surface (durable)",
  "### Out of scope",
  "### Out of scope (none)",
  "### Acceptance Criteria",
  "### Notes",
  "## Out of scope",
  "#### Detail",
  "###",
  "- [ ] returns 404",
  "1. rejects a revoked session",
  "  - nested detail",
  "    indented continuation",
  "  AuthMiddleware",
  "\tTabbed",
  "- `Session { id: string }` — one login",
  "(none)",
  "plain prose line",
  "```ts\nconst x = 1;\n```",
  "~~~\n### Not a heading\n~~~",
  "```\n**Task**: not a field\n## Not trailing\n```",
  "",
  "",
  "   ",
  "\t",
  "<!-- comment -->",
  "**bold** text",
  "- src/auth/session.ts",
];

function randomMarkdown(next: () => number): string {
  const n = Math.floor(next() * 14);
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(LINES[Math.floor(next() * LINES.length)]!);
  const eol = next() < 0.15 ? "\r\n" : "\n";
  return out.join(eol) + (next() < 0.5 ? eol : "");
}

describe("round trip, property-style", () => {
  it("parse(render(parse(x))) deep-equals parse(x) for 3,000 generated texts", () => {
    const next = rng(20251130);
    for (let i = 0; i < 3000; i++) {
      const x = randomMarkdown(next);
      const d = parsePacket(x);
      const again = parsePacket(renderPacket(d));
      if (JSON.stringify(again) !== JSON.stringify(d)) expect({ case: i, x, doc: again }).toEqual({ case: i, x, doc: d });
    }
  });

  it("keeps a brief's first section a section when it has no body", () => {
    for (const md of ["## Agent Brief\n### Type Surface (durable)\n", "## Agent Brief\n**Notes:**\n### Out of scope\n(none)\n"]) {
      const d = parsePacket(md);
      expect(parsePacket(renderPacket(d))).toEqual(d);
    }
  });

  it("keeps a field value that opens with a code fence on its own line", () => {
    const d = parsePacket("## Context Packet\n\n**Scope**:\n```\n**Task**: not a field\n```\n");
    expect(d.fields).toEqual([{ key: "scope", label: "Scope", value: "```\n**Task**: not a field\n```" }]);
    expect(renderPacket(d)).toBe("## Context Packet\n\n**Scope**:\n```\n**Task**: not a field\n```\n");
    expect(parsePacket(renderPacket(d))).toEqual(d);
  });

  it("keeps a field value that starts on an indented continuation line stable", () => {
    const d = parsePacket("## Context Packet\n\n**Scope**:\n  SessionStore\n  AuthMiddleware\n");
    expect(d.fields).toEqual([{ key: "scope", label: "Scope", value: "SessionStore\n  AuthMiddleware" }]);
    expect(parsePacket(renderPacket(d))).toEqual(d);
  });
});
