/**
 * Run packets of a hostile repository (tests/helpers/hostile-repo.ts) through the server's
 * side: the index job, the run views and the search sync. Nothing outside the project is read
 * (its secret is nowhere), no file of a packet is written, nested files become warnings, and a
 * long state log comes one window at a time.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listRuns } from "../../lib/db/repositories/runs";
import { EVENTS_PER_WINDOW } from "../../lib/deep-context/views";
import { runForProject } from "../../lib/deep-context/service";
import { runSearch } from "../../lib/search/service";
import { syncRunSearch } from "../../lib/search/sync";
import { buildHostileRepo, treeDigest, type HostileRepo } from "../helpers/hostile-repo";
import { indexFolder } from "../helpers/db";
import { removeTempDirs } from "../helpers/project-builder";

afterAll(removeTempDirs);

const LOG_LINES = 5_000;

describe("hostile run packets in the server", () => {
  let repo: HostileRepo;
  let projectId = "";
  let outsideBefore: Record<string, string> = {};
  let logBefore: Buffer;
  const runId = async (spec: string) => (await listRuns(projectId)).find((r) => r.relPath === `${spec}/context`)?.id;

  beforeAll(async () => {
    repo = buildHostileRepo({ traps: ["deep-seat", "link-out-file", "link-out-dir", "torn-log", "torn-tail"], logLines: LOG_LINES });
    outsideBefore = treeDigest(repo.outside);
    logBefore = fs.readFileSync(path.join(repo.root, repo.specs.bigLog, "context", "deep-context-state.jsonl"));
    projectId = (await indexFolder(repo.root)).projectId;
    await syncRunSearch(projectId);
  }, 120_000);

  it("indexes every packet; the one whose context folder links out is not a run", async () => {
    const runs = (await listRuns(projectId)).map((r) => r.relPath);
    for (const spec of [repo.specs.deepSeat, repo.specs.linkOut, repo.specs.bigLog, repo.specs.tornTail]) expect(runs).toContain(`${spec}/context`);
    expect(runs).not.toContain(`${repo.specs.escape}/context`);
  });

  it("a seat file linking out is a failed seat with a warning; its content is in no view and no search", async () => {
    const { view } = await runForProject(projectId, (await runId(repo.specs.linkOut))!);
    expect(view!.registry!.seatsByIteration["3"]!.failed).toContain("leak");
    expect(view!.registry!.seatValidationWarnings).toContainEqual(expect.objectContaining({ seat: "leak", reason: "seat file not read: a link to outside the project; not read." }));
    expect(view!.warnings.join("\n")).toContain("leak.json");
    expect(JSON.stringify(view)).not.toContain(repo.secret);
    expect((await runSearch({ q: repo.secret, project: projectId, limit: 10 })).total).toBe(0);
  });

  it("a seat file and a config nested 5,000 deep are warnings, not a failed view", async () => {
    const { view } = await runForProject(projectId, (await runId(repo.specs.deepSeat))!);
    expect(view!.registry).not.toBeNull();
    expect(view!.registry!.seatValidationWarnings).toContainEqual(expect.objectContaining({ seat: "deep", reason: "seat file nested more than 256 levels deep; not read" }));
    expect(view!.warnings.some((w) => /deep-context-config\.json.*nested more than 256 levels deep/.test(w))).toBe(true);
    expect(view!.findingsFacets.total).toBeGreaterThan(0);
  });

  it("a long log with a corrupt line comes one window at a time, read whole and never written", async () => {
    const id = (await runId(repo.specs.bigLog))!;
    const { view } = await runForProject(projectId, id);
    expect(view!.stateLog).toMatchObject({ reading: "corrupt_lines_kept", corruptLineCount: 1 });
    expect(view!.events).toHaveLength(EVENTS_PER_WINDOW);
    expect(view!.eventWindow.total).toBeGreaterThan(LOG_LINES);
    expect(view!.eventWindow.offset).toBe(view!.eventWindow.total - EVENTS_PER_WINDOW);
    const oldest = (await runForProject(projectId, id, "documented", { events: 0 })).view!;
    expect(oldest.eventWindow).toMatchObject({ offset: 0, count: EVENTS_PER_WINDOW });
    expect(oldest.events[0]).not.toEqual(view!.events[0]);
    expect(JSON.stringify(view).length).toBeLessThan(1_000_000);
    expect(fs.readFileSync(path.join(repo.root, repo.specs.bigLog, "context", "deep-context-state.jsonl")).equals(logBefore)).toBe(true);
  });

  it("a torn tail is left out of the view and left on disk", async () => {
    const log = path.join(repo.root, repo.specs.tornTail, "context", "deep-context-state.jsonl");
    const before = fs.readFileSync(log);
    const { view } = await runForProject(projectId, (await runId(repo.specs.tornTail))!);
    expect(view!.stateLog).toMatchObject({ reading: "torn_tail_repaired", droppedBytes: Buffer.byteLength('{"type":"event","event":"seat_dispatch","run":4,"se') });
    expect(fs.readFileSync(log).equals(before)).toBe(true);
  });

  it("leaves everything outside the project as it was", () => {
    expect(treeDigest(repo.outside)).toEqual(outsideBefore);
  });
});
