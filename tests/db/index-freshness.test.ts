/**
 * A re-index where nothing the last job looked at changed (issue 18): answered from the
 * freshness record by metadata alone, with no listing, no read and no write; and any change
 * (an edit, a new file, the memory log) still reaches the index and load-context.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { closeDb } from "../../lib/db/client";
import { countQueries } from "../../lib/db/query-stats";
import { readFreshnessText } from "../../lib/db/repositories/index-freshness";
import { RACY_MS } from "../../lib/core/fs/freshness";
import { indexProject } from "../../lib/indexer/index-project";
import { loadContextForProject } from "../../lib/inventory/service";
import { indexFolder } from "../helpers/db";
import { copySampleProject, removeTempDirs } from "../helpers/project-builder";

// Before the database is first opened in this file (tests/db/setup.ts gives each file its own).
process.env.WORKBENCH_QUERY_STATS = "1";

const writes = (statements: string[]) => statements.filter((s) => /^\s*(INSERT|UPDATE|DELETE)\b/i.test(s));
const STATE = ".claude/work/JIRA-123/state.json";

/** Jobs run "later" than every file's last change, as they do once a user stops typing. */
const moveClockOn = () => vi.setSystemTime(vi.getRealSystemTime() + RACY_MS + 1_000);

describe("re-index of an unchanged project", () => {
  let root: string;
  let projectId: string;

  beforeAll(async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    root = copySampleProject();
    moveClockOn();
    ({ projectId } = await indexFolder(root));
  });

  afterAll(async () => {
    vi.useRealTimers();
    await closeDb();
    removeTempDirs();
  });

  it("is answered from the record: no write, and the last job's totals", async () => {
    expect(await readFreshnessText(projectId)).not.toBeNull();
    const first = await indexProject(projectId);
    const { result, statements } = await countQueries(() => indexProject(projectId));
    expect(writes(statements)).toEqual([]);
    expect(statements.length).toBeLessThanOrEqual(3);
    expect(result).toMatchObject({ filesTotal: first.filesTotal, topics: first.topics, runs: first.runs, filesChanged: 0, gitSkipped: true });
  });

  it("sees an edit, and load-context shows it", async () => {
    const file = path.join(root, STATE);
    const state = JSON.parse(fs.readFileSync(file, "utf8")) as { title?: string };
    fs.writeFileSync(file, JSON.stringify({ ...state, title: "Export reports as CSV, edited after the index" }, null, 2));
    moveClockOn();
    expect((await indexProject(projectId)).filesChanged).toBe(1);
    const { markdown } = await loadContextForProject(projectId, "JIRA-123");
    expect(markdown).toContain("edited after the index");
  });

  it("sees a new entry in a folder, and the memory log", async () => {
    fs.writeFileSync(path.join(root, ".claude/work/JIRA-123/context/late-note.md"), "# A late note\n");
    moveClockOn();
    expect((await indexProject(projectId)).filesChanged).toBe(1);
    moveClockOn();
    expect((await countQueries(() => indexProject(projectId))).statements.filter((s) => s.includes('"SourceFile"'))).toEqual([]);

    fs.appendFileSync(path.join(root, ".coord/memory.yml"), "\n");
    moveClockOn();
    const { statements } = await countQueries(() => indexProject(projectId));
    expect(statements.some((s) => s.includes('"SearchSource"'))).toBe(true);
  });
});
