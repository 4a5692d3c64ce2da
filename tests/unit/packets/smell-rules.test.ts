import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parsePacket, renderPacket, validatePacket, type PacketFinding } from "../../../lib/packets";
import { FILE_LINE_RE, fileLineMatches, PATH_BULLET_RE, pathBulletMatches } from "../../../lib/packets/seed-regexes";
import { narrativePath } from "../../../lib/packets/smell-rules";
import { mulberry32 } from "../../helpers/prng";

const fixture = (name: string) => fs.readFileSync(path.resolve(import.meta.dirname, "../../fixtures/packets", name), "utf8");
const CLEAN = fixture("clean-packet.md");
const CLEAN_BRIEF = fixture("clean-brief.md");

/** The clean packet with one section's body replaced. */
function withSection(md: string, key: string, body: string): string {
  const d = parsePacket(md);
  if (!d.sections.some((s) => s.key === key)) throw new Error(`no section ${key}`);
  return renderPacket({ ...d, sections: d.sections.map((s) => (s.key === key ? { ...s, body } : s)) });
}

function findings(md: string, rule: string): PacketFinding[] {
  const all = validatePacket(md).findings;
  for (const f of all) expect(md.slice(f.offset, f.offset + f.length)).toBe(f.text);
  return all.filter((f) => f.rule === rule);
}

describe("file-line-ref (BLOCK, \\b\\S+\\.[a-z]{1,4}:\\d+\\b)", () => {
  it("blocks a file:line reference anywhere, with the path without its line as the suggestion", () => {
    const md = withSection(CLEAN, "decisions", "- Expiry check: chose UTC over local time because `login.ts:42` compares local times");
    const [f, ...rest] = findings(md, "file-line-ref");
    expect(rest).toEqual([]);
    expect(f).toMatchObject({ tier: "BLOCK", text: "login.ts:42", suggestion: "login.ts", section: "Decisions Made" });
    expect(validatePacket(md).emittable).toBe(false);
  });

  it("blocks it inside Files Touched too", () => {
    const md = withSection(CLEAN, "files-touched", "- `src/auth/middleware.ts:12` (AuthMiddleware, AuthMiddleware.handle) — hint");
    expect(findings(md, "file-line-ref").map((f) => f.text)).toEqual(["src/auth/middleware.ts:12"]);
  });

  it("ignores near misses: an upper-case extension, a ratio, a signature with a typed parameter", () => {
    const md = withSection(CLEAN, "decisions", "- Logs: chose LOGIN.TS:42 style labels over 3.5:1 ratios because `Module.method(input: T)` says so");
    expect(findings(md, "file-line-ref")).toEqual([]);
  });
});

describe("path-bullet-outside-files-touched (BLOCK, ^- \\S*[\\\\/]\\S+\\.(ts|js|py|go|rs|java)\\b)", () => {
  it("blocks a path-only bullet in narrative", () => {
    const md = withSection(CLEAN, "already-tried", "- src/auth/session-store.ts\n- `lib/jobs/retry.py` was rewritten — the retries still fired twice");
    const fs_ = findings(md, "path-bullet-outside-files-touched");
    expect(fs_.map((f) => [f.tier, f.text, f.section])).toEqual([
      ["BLOCK", "- src/auth/session-store.ts", "Already Tried"],
      ["BLOCK", "- `lib/jobs/retry.py", "Already Tried"],
    ]);
    // The BLOCK covers the path: no second, narrative-path WARN for it.
    expect(findings(md, "narrative-path")).toEqual([]);
  });

  it("allows the same bullets inside Files Touched, and ignores near misses elsewhere", () => {
    expect(findings(CLEAN, "path-bullet-outside-files-touched")).toEqual([]);
    const md = withSection(CLEAN, "already-tried", "- src/auth/session.tsx\n  - src/auth/indented.ts\n- see the AuthMiddleware docs\n- docs\\runbook.md");
    expect(findings(md, "path-bullet-outside-files-touched")).toEqual([]);
  });
});

describe("line-number-ref (BLOCK, \\b(line |on line )\\d+\\b, case-insensitive)", () => {
  it("blocks 'on line N' and 'Line N', suggesting to delete them", () => {
    const md = withSection(CLEAN, "constraints", "- MUST: keep the check that fails on line 88\n- MUST NOT: touch Line 7 of the config");
    const fs_ = findings(md, "line-number-ref");
    expect(fs_.map((f) => [f.tier, f.text, f.suggestion])).toEqual([
      ["BLOCK", "on line 88", ""],
      ["BLOCK", "Line 7", ""],
    ]);
  });

  it("ignores near misses: deadline, lines, line-by-line, a line with no number", () => {
    const md = withSection(CLEAN, "constraints", "- MUST: meet the deadline 5 days out\n- MUST: read lines 3 to 4 line-by-line\n- MUST NOT: add a new line here");
    expect(findings(md, "line-number-ref")).toEqual([]);
  });
});

describe("narrative-path (WARN, \\b(src|lib|app)/\\S+ outside Files Touched)", () => {
  it("warns about a path in narrative text, including header fields", () => {
    const md = CLEAN.replace("**Scope**: SessionStore, AuthMiddleware, TokenRefresher", "**Scope**: SessionStore in src/auth/");
    const withNarrative = withSection(md, "decisions", "- Storage: chose lib/cache/lru.ts over a map because it evicts");
    const fs_ = findings(withNarrative, "narrative-path");
    expect(fs_.map((f) => [f.tier, f.text, f.section])).toEqual([
      ["WARN", "src/auth/", null],
      ["WARN", "lib/cache/lru.ts", "Decisions Made"],
    ]);
    const v = validatePacket(withNarrative);
    expect(v.emittable).toBe(true);
    expect(v.warnings.some((w) => w.startsWith("narrative-path (line 5)"))).toBe(true);
  });

  it("names the path without the prose around it: a closing parenthesis, a full stop, quotes", () => {
    const md = withSection(
      CLEAN,
      "decisions",
      '- Storage: chose the LRU (see src/cache/lru.ts) over a map because it evicts; its twin is in lib/cache/ttl.ts.\n- Naming: chose `app/routes/index.tsx`, over "src/pages" because of [app/layout.tsx]',
    );
    const fs_ = findings(md, "narrative-path");
    expect(fs_.map((f) => f.text)).toEqual(["src/cache/lru.ts", "lib/cache/ttl.ts", "app/routes/index.tsx", "src/pages", "app/layout.tsx"]);
    expect(fs_[0]!.message).toContain('Path "src/cache/lru.ts" in narrative');
  });

  it("keeps brackets that belong to the path", () => {
    expect(narrativePath("src/fn(a).ts")).toBe("src/fn(a).ts");
    expect(narrativePath("src/fn(a).ts)")).toBe("src/fn(a).ts");
    expect(narrativePath("src/[id]/page.tsx")).toBe("src/[id]/page.tsx");
    expect(narrativePath("src/[id]/page.tsx],")).toBe("src/[id]/page.tsx");
    expect(narrativePath("src/x.ts).")).toBe("src/x.ts");
  });

  it("skips Files Touched and near misses (webapp/, library/, src-gen/)", () => {
    expect(findings(CLEAN, "narrative-path")).toEqual([]);
    const md = withSection(CLEAN, "decisions", "- Layout: chose webapp/ over library/ and src-gen/ because of the bundler");
    expect(findings(md, "narrative-path")).toEqual([]);
  });

  it("lets a bug brief cite a path paired with a type or function name, but not an enhancement brief", () => {
    const current = "Truncation in src/skills/parser.ts (`extractDescription`) cuts mid-word.";
    const bug = CLEAN_BRIEF.replace("**Category:** enhancement", "**Category:** bug").replace(/\*\*Current behavior:\*\*\n[^\n]*\n[^\n]*\n/, `**Current behavior:**\n${current}\n`);
    expect(bug).toContain(current);
    expect(findings(bug, "narrative-path")).toEqual([]);
    const unpaired = bug.replace(" (`extractDescription`)", "");
    expect(findings(unpaired, "narrative-path").map((f) => f.text)).toEqual(["src/skills/parser.ts"]);
    const enhancement = bug.replace("**Category:** bug", "**Category:** enhancement");
    expect(findings(enhancement, "narrative-path").map((f) => f.text)).toEqual(["src/skills/parser.ts"]);
  });
});

describe("the linear scanners match the seed's regexes exactly", () => {
  // Pieces of the patterns and their near misses, so random texts hit every branch.
  const PIECES = ["a", "B", "_", "9", "42", ".", ".ts", ".tsx", ".java", ".js", ".Ts", ":", ":7", "/", "\\", "- ", "-", " ", "\n", "\r\n", "\t", "`", "(", "é", "src/", "login", "x.py", "a.go:1", "\n- "];
  const random = (rand: () => number, n: number) => Array.from({ length: n }, () => PIECES[Math.floor(rand() * PIECES.length)]).join("");
  const viaRegex = (re: RegExp, text: string) => [...text.matchAll(re)].map((m) => ({ index: m.index, text: m[0] }));

  it("on 5,000 random texts", () => {
    const rand = mulberry32(7);
    const hits = { fileLine: 0, pathBullet: 0 };
    for (let i = 0; i < 5000; i++) {
      const text = (rand() < 0.5 ? "- " : "") + random(rand, 1 + Math.floor(rand() * 40));
      expect(fileLineMatches(text), JSON.stringify(text)).toEqual(viaRegex(FILE_LINE_RE, text));
      expect(pathBulletMatches(text), JSON.stringify(text)).toEqual(viaRegex(PATH_BULLET_RE, text));
      if (viaRegex(FILE_LINE_RE, text).length) hits.fileLine++;
      if (viaRegex(PATH_BULLET_RE, text).length) hits.pathBullet++;
    }
    // The texts must actually exercise matches, not only misses.
    expect(hits.fileLine).toBeGreaterThan(500);
    expect(hits.pathBullet).toBeGreaterThan(300);
  });

  it("on the fixtures, and fast on a long run without spaces where the regexes backtrack", () => {
    for (const name of ["clean-packet.md", "failing-packet.md", "clean-brief.md"]) {
      const text = fixture(name);
      expect(fileLineMatches(text)).toEqual(viaRegex(FILE_LINE_RE, text));
      expect(pathBulletMatches(text)).toEqual(viaRegex(PATH_BULLET_RE, text));
    }
    const blob = "## Context Packet\n\n- " + "src/a.b".repeat(30_000);
    const t0 = performance.now();
    const v = validatePacket(blob);
    expect(performance.now() - t0).toBeLessThan(2000);
    expect(v.emittable).toBe(false);
  });
});
