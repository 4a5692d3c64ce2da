/**
 * A re-index where no file changed decides so from one digest of the listing, without reading
 * and comparing every stored fingerprint (issue 18: the no-change re-index); any change to the
 * listing still goes through the fingerprint comparison.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db/client";
import { countQueries } from "../../lib/db/query-stats";
import { indexProject } from "../../lib/indexer/index-project";
import { indexFolder, topicTable } from "../helpers/db";
import { copySampleProject, editFile, removeTempDirs, setAllMtimes } from "../helpers/project-builder";

// Before the database is first opened in this file (tests/db/setup.ts gives each file its own).
process.env.WORKBENCH_QUERY_STATS = "1";

afterAll(removeTempDirs);

const T0 = 1_770_000_000;
const readsFingerprints = (statements: string[]) => statements.filter((s) => /FROM\s+"?SourceFile"?/i.test(s) && /"mtimeMs"/.test(s));

describe("the listing digest", () => {
  let root: string;
  let projectId: string;

  beforeAll(async () => {
    root = copySampleProject();
    setAllMtimes(root, T0);
    ({ projectId } = await indexFolder(root));
  });

  const digest = async () => (await (await getDb()).project.findUniqueOrThrow({ where: { id: projectId }, select: { listingDigest: true } })).listingDigest;

  it("is stored by an index whose every entry was read", async () => {
    expect(await digest()).toMatch(/^[0-9a-f]{64}$/);
  });

  it("a re-index with nothing changed reads no stored fingerprint and changes nothing", async () => {
    const before = await topicTable(projectId);
    const { result, statements } = await countQueries(() => indexProject(projectId));
    expect(result.filesChanged).toBe(0);
    expect(result.filesRemoved).toBe(0);
    expect(readsFingerprints(statements)).toEqual([]);
    expect(await topicTable(projectId)).toEqual(before);
  });

  it("an edited file changes the digest: the fingerprints are compared and only that file is read", async () => {
    const before = await digest();
    const rel = ".claude/work/JIRA-123/state.json";
    const state = JSON.parse(fs.readFileSync(path.join(root, rel), "utf8")) as Record<string, unknown>;
    state.title = "User Export Feature (v2)";
    editFile(root, rel, JSON.stringify(state, null, 2), T0 + 60);
    const { result, statements } = await countQueries(() => indexProject(projectId));
    expect(result.filesChanged).toBe(1);
    expect(readsFingerprints(statements).length).toBeGreaterThan(0);
    expect((await topicTable(projectId)).find((t) => t.slug === "JIRA-123")?.title).toBe("User Export Feature (v2)");
    expect(await digest()).not.toBe(before);
  });

  it("a file that is gone and a new one are found, and the run after them reads no fingerprint again", async () => {
    fs.rmSync(path.join(root, ".claude/work/JIRA-123/context/notes.md"));
    editFile(root, ".claude/work/JIRA-123/context/more-notes.md", "# More notes\n", T0);
    const stats = await indexProject(projectId);
    expect(stats.filesRemoved).toBe(1);
    expect(stats.filesChanged).toBe(1);
    const again = await countQueries(() => indexProject(projectId));
    expect(again.result.filesChanged).toBe(0);
    expect(readsFingerprints(again.statements)).toEqual([]);
  });
});
