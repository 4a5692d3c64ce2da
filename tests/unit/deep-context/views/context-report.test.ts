import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ProjectFs } from "../../../../lib/core/project-fs";
import { readContextReport } from "../../../../lib/deep-context/views/context-report";

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

function project(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "wb-report-"));
  dirs.push(root);
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  return root;
}

const REPORT = `# Context Report: session storage

> Scope and method.

**Scope**: sessions

## 1. REUSE Catalog (highest value)

| id | symbol (file:line) | signature | reuse | confidence | agree | freshness | notes |
|---|---|---|---|---|---|---|---|
| reuse-001 | \`SessionService.resolve\` (src/session.ts:2) | resolve(id) | extend | 0.91 | 3/3 | verified | cache first |
| reuse-002 | \`dropCache\` (src/session.ts:3) | dropCache() | wrap | 0.7 | 2/3 | verified | |
| reuse-003 | \`gone\` (src/removed.ts:9) | gone() | import | 0.6 | 2/3 | unverified | |

## 2. Integration Points

- **[HARD]** router (src/app.ts:1) — mounts everything
`;

describe("readContextReport", () => {
  it("reads the REUSE catalog first and checks each entry against the repository", async () => {
    const root = project({
      "specs/x/context/context-report.md": REPORT,
      "src/session.ts": "export class SessionService {\n  resolve(id: string) { return id; }\n}\n",
    });
    const r = (await readContextReport(await ProjectFs.open(root), "specs/x/context"))!;
    expect(r.title).toBe("Context Report: session storage");
    expect(r.reuse.map((e) => [e.id, e.symbol, e.location, e.reuse, e.confidence, e.agree, e.recordedFreshness])).toEqual([
      ["reuse-001", "SessionService.resolve", "src/session.ts:2", "extend", "0.91", "3/3", "verified"],
      ["reuse-002", "dropCache", "src/session.ts:3", "wrap", "0.7", "2/3", "verified"],
      ["reuse-003", "gone", "src/removed.ts:9", "import", "0.6", "2/3", "unverified"],
    ]);
    expect(r.reuse.map((e) => e.check.status)).toEqual(["verified", "stale", "missing"]);
    expect(r.reuse[0]!.check.lineText).toBe("  resolve(id: string) { return id; }");
    expect(r.rest).toContain("## 2. Integration Points");
    expect(r.rest).not.toContain("reuse-001");
  });

  it("is null without a report, and never reads outside the project", async () => {
    const root = project({ "specs/x/context/deep-context-state.jsonl": "" });
    expect(await readContextReport(await ProjectFs.open(root), "specs/x/context")).toBeNull();
    const hostile = project({
      "specs/x/context/context-report.md": "# R\n\n## 1. REUSE Catalog\n\n| id | symbol (file:line) |\n|---|---|\n| reuse-001 | `root` (../../../etc/passwd:1) |\n",
    });
    const r = (await readContextReport(await ProjectFs.open(hostile), "specs/x/context"))!;
    expect(r.reuse[0]!.check).toMatchObject({ status: "missing", reason: "the path points outside the project" });
  });

  it("reads the context-report.json companion, and takes its catalog when the markdown has none", async () => {
    const json = JSON.stringify({
      title: "Context Report (json)",
      reuse_catalog: [
        { id: "reuse-001", symbol: "SessionService.resolve", path: "src/session.ts", line: 2, signature: "resolve(id)", how_to_extend: "extend", confidence: 0.91, agreement: "3/3", freshness: "verified" },
        { id: 2, symbol: "gone", location: "src/removed.ts:9", reuse: "import" },
      ],
    });
    const src = { "src/session.ts": "export class SessionService {\n  resolve(id: string) { return id; }\n}\n" };
    const onlyJson = project({ ...src, "specs/x/context/context-report.json": json });
    const a = (await readContextReport(await ProjectFs.open(onlyJson), "specs/x/context"))!;
    expect(a).toMatchObject({ relPath: "specs/x/context/context-report.json", title: "Context Report (json)", reuseSource: "json", json: { reuseEntries: 2 } });
    expect(a.reuse.map((e) => [e.id, e.symbol, e.location, e.reuse, e.confidence, e.check.status])).toEqual([
      ["reuse-001", "SessionService.resolve", "src/session.ts:2", "extend", "0.91", "verified"],
      ["2", "gone", "src/removed.ts:9", "import", "", "missing"],
    ]);

    const both = project({ ...src, "specs/x/context/context-report.md": REPORT, "specs/x/context/context-report.json": json });
    const b = (await readContextReport(await ProjectFs.open(both), "specs/x/context"))!;
    expect(b.reuseSource).toBe("markdown");
    expect(b.reuse).toHaveLength(3);
    expect(b.json).toMatchObject({ relPath: "specs/x/context/context-report.json", reuseEntries: 2 });

    const noCatalog = project({ ...src, "specs/x/context/context-report.md": "# R\n\nNothing yet.\n", "specs/x/context/context-report.json": json });
    const c = (await readContextReport(await ProjectFs.open(noCatalog), "specs/x/context"))!;
    expect(c.reuseSource).toBe("json");
    expect(c.reuse).toHaveLength(2);
  });

  it("names the file, line and field when context-report.json is broken, and keeps the markdown", async () => {
    const warnings: string[] = [];
    const torn = project({ "specs/x/context/context-report.md": REPORT, "specs/x/context/context-report.json": '{"reuse_catalog": [{"id": "r1",\n  "symbol": ' });
    const r = (await readContextReport(await ProjectFs.open(torn), "specs/x/context", (m) => warnings.push(m)))!;
    expect(r.reuseSource).toBe("markdown");
    expect(r.json).toBeNull();
    expect(warnings).toEqual([expect.stringMatching(/^specs\/x\/context\/context-report\.json: not valid JSON at line 2, column/)]);

    warnings.length = 0;
    const badField = project({ "specs/x/context/context-report.json": JSON.stringify({ reuseCatalog: [{ symbol: "ok", path: "a.ts" }, { symbol: 42 }] }) });
    const s = (await readContextReport(await ProjectFs.open(badField), "specs/x/context", (m) => warnings.push(m)))!;
    expect(warnings.join("\n")).toMatch(/context-report\.json: field "reuseCatalog\.1\.symbol" ignored/);
    expect(s.reuse.map((e) => e.symbol)).toEqual(["ok", ""]);
  });
});
