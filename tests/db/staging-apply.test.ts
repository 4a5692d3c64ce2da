/**
 * An index job's staging area (lib/db/staging.ts) is applied while the server goes on writing
 * the same project: rows the server wrote meanwhile under a key the job also wrote must not
 * fail the apply (a memory decision re-indexes the memory's search source while a job runs).
 */
import { afterAll, describe, expect, it } from "vitest";
import { applyEntryChanges, sourceFingerprint } from "../../lib/db/repositories/search";
import { readSql } from "../../lib/db/sql-tx";
import { openStagingArea } from "../../lib/db/staging";
import { indexFolder } from "../helpers/db";
import { copySampleProject, removeTempDirs } from "../helpers/project-builder";

afterAll(removeTempDirs);

const NOTHING = { upsert: [], remove: [] };

describe("applying a staging area beside the server's writes", () => {
  it("keeps the server's search source written meanwhile under a key the job added too", async () => {
    const { projectId } = await indexFolder(copySampleProject());
    const key = "staging-test:added-by-both";
    const area = await openStagingArea(projectId);
    try {
      await area.run(() => applyEntryChanges(projectId, NOTHING, { key, fingerprint: "job" }));
      // The server, on its own connection, writes the same key before the job applies.
      await applyEntryChanges(projectId, NOTHING, { key, fingerprint: "server" });
      const out = await area.apply(async () => true);
      expect(out.applied).toBe(true);
    } finally {
      await area.close();
    }
    // The server's row is the newer one: the next sync compares entries against it.
    expect(await sourceFingerprint(projectId, key)).toBe("server");
    expect(await readSql(`SELECT "key" FROM "SearchSource" WHERE "projectId" = ? AND "key" = ?`, [projectId, key])).toHaveLength(1);
  });

  it("writes the job's change of a source the server left alone", async () => {
    const { projectId } = await indexFolder(copySampleProject());
    const key = "staging-test:job-only";
    await applyEntryChanges(projectId, NOTHING, { key, fingerprint: "before" });
    const area = await openStagingArea(projectId);
    try {
      await area.run(() => applyEntryChanges(projectId, NOTHING, { key, fingerprint: "job" }));
      expect(await sourceFingerprint(projectId, key)).toBe("before");
      expect((await area.apply(async () => true)).applied).toBe(true);
    } finally {
      await area.close();
    }
    expect(await sourceFingerprint(projectId, key)).toBe("job");
  });
});
