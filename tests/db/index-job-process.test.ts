/**
 * Server index jobs run in a process of their own and write a staging area applied in one
 * transaction at their end (lib/indexer/jobs.ts, lib/indexer/job-child.ts, lib/db/staging.ts):
 * a cancelled or killed job leaves every stored row of the project as it was, and its status
 * says what happened; progress still reaches the job's row while it runs.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as cancelRoute } from "../../app/api/v1/jobs/[id]/cancel/route";
import { generateProject } from "../../bench/generate-project";
import { setMember } from "../../lib/db/repositories/accounts";
import type { IndexJobDto, JobPhase } from "../../lib/db/dto";
import { createJob, endJob, failStaleJobs, getJob, markJobRunning } from "../../lib/db/repositories/jobs";
import { readSql } from "../../lib/db/sql-tx";
import { cancelIndexJob, indexJobProcess, startIndexJob, waitForJob } from "../../lib/indexer/jobs";
import { addProject } from "../../lib/projects/add-project";
import { runSearch } from "../../lib/search/service";
import { makeTempDir, removeTempDirs } from "../helpers/project-builder";
import { accountWithToken, enterTeamMode, leaveTeamMode } from "../helpers/team-mode";

afterAll(removeTempDirs);

/** Every table an index job writes, with the rows of one project. */
const TABLES = ["SourceFile", "IndexWarning", "TopicSource", "Topic", "Document", "GitBranch", "GitCommit", "DeepRun", "SearchEntry", "SearchSource", "IndexFreshness"];

/** The project's stored rows, table by table, in a stable order (ids included: "as before" means the same rows). */
async function storedRows(projectId: string): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const t of TABLES) {
    const rows = await readSql<Record<string, unknown>>(`SELECT * FROM "${t}" WHERE "projectId" = ?`, [projectId]);
    out[t] = rows.map((r) => JSON.stringify(r, (_k, v: unknown) => (v instanceof Date ? v.toISOString() : v))).sort();
  }
  out.Project = (await readSql<Record<string, unknown>>(`SELECT * FROM "Project" WHERE "id" = ?`, [projectId])).map((r) => JSON.stringify(r));
  return out;
}

/** A word that only the edit below writes, and how many search hits it has in the project. */
const NEW_WORD = "zyxwvquokkaledger";
const hitsOfNewWord = async (projectId: string) => (await runSearch({ q: NEW_WORD, project: projectId })).total;

/** Polls the job's row until it is in `phase` (or has ended), noting every phase and count seen. */
async function waitForPhase(jobId: string, phase: JobPhase, seen: IndexJobDto[] = []): Promise<IndexJobDto> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const job = await getJob(jobId);
    seen.push(job);
    if (job.phase === phase || (job.status !== "queued" && job.status !== "running")) return job;
    if (Date.now() > deadline) throw new Error(`job ${jobId} never reached ${phase}`);
    await new Promise((r) => setTimeout(r, 15));
  }
}

describe("index jobs in their own process", () => {
  let root = "";
  let projectId = "";
  let workIds: string[] = [];
  let docPaths: string[] = [];

  beforeAll(async () => {
    root = path.join(makeTempDir(), "project");
    // Large enough that a full re-index spends a while in its search phase (with the staged index written).
    ({ workIds, documentPaths: docPaths } = generateProject(root, { sessions: 700, documents: 900, tickets: 40, commits: 5, branches: 2 }));
    projectId = (await addProject({ path: root })).id;
    const first = await startIndexJob(projectId);
    await waitForJob(projectId);
    expect((await getJob(first.id)).status).toBe("succeeded");
    // Changes the next index would store: a removed session, a rewritten and a new document.
    fs.rmSync(path.join(root, ".claude", "work", workIds[3]!), { recursive: true, force: true });
    fs.appendFileSync(path.join(root, docPaths[0]!), `\n\nThe ${NEW_WORD} section.\n`);
    fs.writeFileSync(path.join(root, path.dirname(docPaths[1]!), "added-note.md"), `# Added\n\n${NEW_WORD} again.\n`);
  }, 240_000);

  it("reports its phases and counts on the job's row while it runs", async () => {
    const seen: IndexJobDto[] = [];
    const job = await startIndexJob(projectId, { full: true });
    const last = await waitForPhase(job.id, "done", seen);
    await waitForJob(projectId);
    const phases = new Set(seen.filter((j) => j.status === "running").map((j) => j.phase));
    for (const p of ["sources", "documents", "search"] as const) expect(phases).toContain(p);
    expect(seen.some((j) => j.status === "running" && j.filesTotal > 1000 && j.filesDone > 0)).toBe(true);
    expect(["running", "succeeded"]).toContain(last.status);
    const final = await getJob(job.id);
    expect(final.status).toBe("succeeded");
    expect(final.stats.filesTotal).toBeGreaterThan(1000);
  }, 180_000);

  it("leaves the project exactly as it was when cancelled, and the next job stores the change", async () => {
    // The first test's job already stored the edit; a new one is made for this test.
    fs.appendFileSync(path.join(root, docPaths[2]!), `\n\n${NEW_WORD} once more.\n`);
    fs.rmSync(path.join(root, ".claude", "work", workIds[4]!), { recursive: true, force: true });
    const before = await storedRows(projectId);
    const hitsBefore = await hitsOfNewWord(projectId);

    const job = await startIndexJob(projectId, { full: true });
    // The search phase comes after the index's own write (to the staging area).
    expect((await waitForPhase(job.id, "search")).status).toBe("running");
    const cancelled = await cancelIndexJob(job.id);
    expect(cancelled.status).toBe("cancelled");
    await waitForJob(projectId);
    expect((await getJob(job.id)).status).toBe("cancelled");
    expect(await storedRows(projectId)).toEqual(before);
    expect(await hitsOfNewWord(projectId)).toBe(hitsBefore);
    // A job that has ended cannot be cancelled again.
    await expect(cancelIndexJob(job.id)).rejects.toMatchObject({ code: "CONFLICT" });

    // Not a test that cannot fail: the same job run to its end changes those rows.
    const again = await startIndexJob(projectId, { full: true });
    await waitForJob(projectId);
    expect((await getJob(again.id)).status).toBe("succeeded");
    const after = await storedRows(projectId);
    expect(after.Document).not.toEqual(before.Document);
    // The removed session is still in the work manifest: its source row stays, no longer on disk.
    expect(after.TopicSource).not.toEqual(before.TopicSource);
    expect(await hitsOfNewWord(projectId)).toBeGreaterThan(hitsBefore);
  }, 180_000);

  it("leaves the project exactly as it was when its process is killed, and says it was interrupted", async () => {
    fs.appendFileSync(path.join(root, docPaths[5]!), `\n\n${NEW_WORD} in a killed job.\n`);
    const before = await storedRows(projectId);
    const job = await startIndexJob(projectId, { full: true });
    expect((await waitForPhase(job.id, "search")).status).toBe("running");
    indexJobProcess(job.id)!.kill("SIGKILL");
    await waitForJob(projectId);
    const ended = await getJob(job.id);
    expect(ended.status).toBe("interrupted");
    expect(ended.error).toMatch(/SIGKILL/);
    expect(await storedRows(projectId)).toEqual(before);
  }, 180_000);

  it("stops by itself when another instance marks it cancelled", async () => {
    fs.appendFileSync(path.join(root, docPaths[6]!), `\n\n${NEW_WORD} elsewhere.\n`);
    const before = await storedRows(projectId);
    const job = await startIndexJob(projectId, { full: true });
    expect((await waitForPhase(job.id, "search")).status).toBe("running");
    // What the cancel route does on an instance that does not run the job: only the row changes.
    expect(await endJob(job.id, "cancelled", "Cancelled.")).toBe(true);
    await waitForJob(projectId);
    expect((await getJob(job.id)).status).toBe("cancelled");
    expect(await storedRows(projectId)).toEqual(before);
  }, 180_000);
});

describe("index jobs at start-up", () => {
  it("marks a job left running by a dead process interrupted, never running forever", async () => {
    const project = await addProject({ path: makeTempDir() });
    const job = await createJob(project.id);
    expect(await markJobRunning(job.id)).toBe(true);
    await failStaleJobs();
    const after = await getJob(job.id);
    expect(after.status).toBe("interrupted");
    expect(after.finishedAt).not.toBeNull();
  });
});

describe("POST /api/v1/jobs/{id}/cancel in team mode", () => {
  afterAll(leaveTeamMode);

  it("lets whoever may start an index cancel one, refuses a viewer and hides the job from others", async () => {
    enterTeamMode();
    await accountWithToken("admin@example.com");
    const viewer = await accountWithToken("viewer@example.com");
    const editor = await accountWithToken("editor@example.com");
    const outsider = await accountWithToken("outsider@example.com");
    const project = await addProject({ path: makeTempDir() });
    await setMember(project.id, viewer.id, "viewer");
    await setMember(project.id, editor.id, "editor");
    // A queued job that no process runs: the route's answer is the row's.
    const job = await createJob(project.id);
    const cancel = (headers: Record<string, string>, id = job.id) => cancelRoute(new Request(`http://127.0.0.1:3999/api/v1/jobs/${id}/cancel`, { method: "POST", headers }), { params: Promise.resolve({ id }) });

    const hidden = await cancel(outsider.headers);
    expect(hidden.status).toBe(404);
    expect(await hidden.json()).toEqual(await (await cancel(outsider.headers, "no-such-job")).json());
    expect((await cancel(viewer.headers)).status).toBe(403);
    expect((await getJob(job.id)).status).toBe("queued");

    const done = await cancel(editor.headers);
    expect(done.status).toBe(200);
    expect(((await done.json()) as { job: IndexJobDto }).job.status).toBe("cancelled");
    const again = await cancel(editor.headers);
    expect(again.status).toBe(409);
    expect(((await again.json()) as { error: { code: string } }).error.code).toBe("CONFLICT");
  });
});
