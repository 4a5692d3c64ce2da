/**
 * `workbench load-context` on a project where nothing changed (issue 18, CLI start): the
 * re-index and the read go through plain SQL only, so the command never loads the Prisma
 * client, and nothing the index keeps (runs, search entries) is rewritten.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb } from "../../lib/db/client";
import { countQueries } from "../../lib/db/query-stats";
import { findProjectByRoot } from "../../lib/db/repositories/projects";
import { indexProject } from "../../lib/indexer/index-project";
import { loadContextForProject } from "../../lib/inventory/service";
import { indexFolder } from "../helpers/db";
import { copySampleProject, editFile, removeTempDirs, setAllMtimes } from "../helpers/project-builder";

// Before the database is first opened in this file (tests/db/setup.ts gives each file its own).
process.env.WORKBENCH_QUERY_STATS = "1";

afterAll(removeTempDirs);

const T0 = 1_770_000_000;
const prismaOpen = () => (globalThis as { __workbenchDb?: unknown }).__workbenchDb !== undefined;
const writesTo = (statements: string[], table: string) => statements.filter((s) => /^\s*(INSERT|UPDATE|DELETE)\b/i.test(s) && s.includes(`"${table}"`));
const readsMemoryEntries = (statements: string[]) => statements.filter((s) => /FROM "SearchEntry"/.test(s) && /"kind" IN/.test(s));

describe("load-context on an unchanged project", () => {
  let root: string;

  beforeAll(async () => {
    root = copySampleProject();
    setAllMtimes(root, T0);
    await indexFolder(root);
    await closeDb();
  });

  /** What the CLI's load-context does: find the project by its folder, re-index, read the topic. */
  const loadContext = () =>
    countQueries(async () => {
      const project = await findProjectByRoot(root);
      if (!project) throw new Error("the project is not registered");
      await indexProject(project.id);
      return (await loadContextForProject(project.id, "JIRA-123")).markdown;
    });

  it("reads and re-indexes without the Prisma client, and rewrites no run or search entry", async () => {
    const { result, statements } = await loadContext();
    expect(result).toMatch(/^Context: JIRA-123\n/);
    expect(prismaOpen()).toBe(false);
    for (const table of ["DeepRun", "SearchEntry", "SearchSource", "Topic", "TopicSource", "Document"]) expect(writesTo(statements, table)).toEqual([]);
    expect(readsMemoryEntries(statements)).toEqual([]);
  });

  it("a changed memory log is read again and its entries compared, once", async () => {
    editFile(root, ".coord/memory.yml", fs.readFileSync(path.join(root, ".coord/memory.yml"), "utf8") + "\n", T0 + 60);
    const changed = await loadContext();
    expect(readsMemoryEntries(changed.statements).length).toBeGreaterThan(0);
    const again = await loadContext();
    expect(readsMemoryEntries(again.statements)).toEqual([]);
    expect(prismaOpen()).toBe(false);
  });
});
