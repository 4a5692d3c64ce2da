/**
 * The lint rules that hold docs/ARCHITECTURE.md's layers bite: each fixture in
 * tests/fixtures/lint breaks one, and the project's own ESLint config reports it. Most
 * fixtures are linted as if they stood at another path (lintText's filePath), so one file
 * can stand for a page, a component, a repository or a capability.
 */
import fs from "node:fs";
import path from "node:path";
import { ESLint } from "eslint";
import { beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../helpers/project-builder";

const FIXTURES = path.join(REPO_ROOT, "tests", "fixtures", "lint");

let eslint: ESLint;
beforeAll(() => {
  // `ignore: false`: the main run ignores tests/fixtures, these are linted on purpose.
  eslint = new ESLint({ cwd: REPO_ROOT, ignore: false });
});

/** rule id and line of each problem found in a fixture linted as `asPath`. */
async function problems(fixture: string, asPath: string): Promise<{ rule: string | null; line: number; message: string }[]> {
  const text = fs.readFileSync(path.join(FIXTURES, fixture), "utf8");
  const [result] = await eslint.lintText(text, { filePath: path.join(REPO_ROOT, asPath) });
  return result!.messages.map((m) => ({ rule: m.ruleId, line: m.line, message: m.message }));
}

const rulesOf = (ps: { rule: string | null }[]) => ps.map((p) => p.rule);

describe("the layers' lint rules", () => {
  it.each(["app/projects/[id]/lint-fixture/page.tsx", "components/projects/lint-fixture.tsx"])("%s may not import lib/db, not even a type", async (asPath) => {
    const found = await problems("ui-imports-db.tsx", asPath);
    expect(found.filter((p) => p.rule === "import-x/no-restricted-paths").map((p) => p.line)).toEqual([2, 3]);
    expect(found[0]!.message).toContain("lib/<capability>/service.ts");
  });

  it("the same page through the capability's service and types passes", async () => {
    expect(await problems("ui-through-capability.tsx", "app/projects/[id]/lint-fixture/page.tsx")).toEqual([]);
  });

  it("lib/db may not import a capability", async () => {
    const found = await problems("db-imports-capability.ts", "lib/db/repositories/lint-fixture.ts");
    expect(found).toEqual([expect.objectContaining({ rule: "import-x/no-restricted-paths", line: 2 })]);
    expect(found[0]!.message).toContain("lib/db imports only lib/core and itself");
  });

  it.each(["lib/inventory/lint-fixture.ts", "cli/commands/lint-fixture.ts", "app/lint-fixture/page.tsx"])("%s may not import Prisma or the generated client", async (asPath) => {
    const found = await problems("prisma-outside-db.ts", asPath);
    const prisma = found.filter((p) => p.rule === "no-restricted-imports");
    expect(prisma.map((p) => p.line)).toEqual([2, 3]);
    expect(prisma[0]!.message).toContain("Prisma lives only in lib/db");
  });

  it("lib/db itself may import Prisma", async () => {
    expect(rulesOf(await problems("prisma-outside-db.ts", "lib/db/lint-fixture.ts"))).not.toContain("no-restricted-imports");
  });

  it("lib/core imports nothing else of lib/", async () => {
    expect(await problems("core-imports-capability.ts", "lib/core/lint-fixture.ts")).toEqual([expect.objectContaining({ rule: "import-x/no-restricted-paths", line: 2 })]);
  });

  it.each(["app/lint-fixture/page.tsx", "lib/deep-context/views/lint-fixture.ts", "lib/deep-context/lint-fixture.ts"])("%s uses a deep-context part through its index only", async (asPath) => {
    const found = await problems("deep-context-internals.ts", asPath);
    expect(found).toEqual([expect.objectContaining({ rule: "import-x/no-restricted-paths", line: 3 })]);
  });

  it("inside the part its files import each other", async () => {
    expect(await problems("deep-context-internals.ts", "lib/deep-context/reducer/lint-fixture.ts")).toEqual([]);
  });

  it("lib/ may not import React or Next", async () => {
    const found = await problems("lib-imports-react.ts", "lib/packets/lint-fixture.ts");
    expect(found).toEqual([expect.objectContaining({ rule: "no-restricted-imports", line: 2 })]);
  });

  it("a client component may not keep a run-time import of server-only code; a type import is fine", async () => {
    const found = await problems("client-imports-server.tsx", "components/projects/lint-fixture.tsx");
    expect(found).toEqual([expect.objectContaining({ rule: "workbench/client-safe", line: 4 })]);
    expect(found[0]!.message).toMatch(/lib\/core\/project-fs\.ts -> .*(fs|path)/);
  });

  it("an import cycle is reported on both sides, type-only imports included", async () => {
    const results = await eslint.lintFiles([path.join(FIXTURES, "cycle")]);
    const byFile = Object.fromEntries(results.map((r) => [path.basename(r.filePath), r.messages.map((m) => [m.ruleId, m.line])]));
    expect(byFile).toEqual({ "a.ts": [["workbench/no-cycle", 2]], "b.ts": [["workbench/no-cycle", 1]] });
    expect(results[0]!.messages[0]!.message).toContain("tests/fixtures/lint/cycle/a.ts -> tests/fixtures/lint/cycle/b.ts -> tests/fixtures/lint/cycle/a.ts");
  });
});
