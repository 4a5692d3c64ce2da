import { afterAll, describe, expect, it } from "vitest";
import * as Y from "yjs";
import { markdownText } from "../../lib/collab/shared-text";
import { tryClusterLock } from "../../lib/db/cluster-lock";
import { loadDocState, storeDocState } from "../../lib/db/repositories/collab";
import { createJob, getJob, failStaleJobs, indexLockName } from "../../lib/db/repositories/jobs";
import { newPacket, textOf } from "../helpers/collab-client";
import { addProject } from "../../lib/projects/add-project";
import { makeTempDir, removeTempDirs } from "../helpers/project-builder";

afterAll(removeTempDirs);

describe("storing a co-edited document (any engine)", () => {
  it("merges with what another instance stored instead of overwriting it", async () => {
    const packetId = await newPacket();
    const base = new Y.Doc();
    markdownText(base).insert(0, "base\n");
    const baseState = Y.encodeStateAsUpdate(base);
    // Two instances that each saw the base but not each other's edit.
    const edited = (line: string) => {
      const d = new Y.Doc();
      Y.applyUpdate(d, baseState);
      markdownText(d).insert(0, line);
      return Y.encodeStateAsUpdate(d);
    };
    expect(await storeDocState(packetId, edited("from A\n"))).toBe(true);
    expect(await storeDocState(packetId, edited("from B\n"))).toBe(true);
    const text = textOf((await loadDocState(packetId))!);
    expect(text).toContain("from A\n");
    expect(text).toContain("from B\n");
    expect(text).toContain("base\n");

    // Racing stores (the first one creating the row) lose nothing either.
    const racing = await newPacket();
    const lines = Array.from({ length: 8 }, (_, i) => `edit ${i}\n`);
    expect(await Promise.all(lines.map((l) => storeDocState(racing, edited(l))))).toEqual(lines.map(() => true));
    const raced = textOf((await loadDocState(racing))!);
    for (const l of lines) expect(raced).toContain(l);
  });
});

describe("index jobs at start-up (any engine)", () => {
  it("marks a job nobody runs interrupted but leaves one whose instance holds its project's lock", async () => {
    const orphan = await createJob((await addProject({ path: makeTempDir() })).id);
    const live = await createJob((await addProject({ path: makeTempDir() })).id);
    const lock = (await tryClusterLock(indexLockName(live.projectId)))!;
    try {
      await failStaleJobs();
      expect((await getJob(orphan.id)).status).toBe("interrupted");
      expect((await getJob(live.id)).status).toBe("queued");
    } finally {
      await lock.release();
    }
  });
});
