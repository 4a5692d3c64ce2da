import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db/client";
import { runSearch } from "../../lib/search/service";
import { indexFolder } from "../helpers/db";
import { ProjectBuilder, copySampleProject, editFile, removeTempDirs, setAllMtimes } from "../helpers/project-builder";

afterAll(removeTempDirs);

// An entry's stored hash set to this marks it as "not rewritten since": any rebuild of the
// entry replaces the row and its hash.
const UNTOUCHED = "untouched-by-the-sync";

async function entry(projectId: string, kind: string, ref: string) {
  const db = await getDb();
  return db.searchEntry.findUnique({ where: { projectId_kind_ref: { projectId, kind, ref } }, select: { id: true, hash: true, title: true } });
}

async function mark(projectId: string, kind: string, ref: string): Promise<void> {
  const db = await getDb();
  await db.searchEntry.update({ where: { projectId_kind_ref: { projectId, kind, ref } }, data: { hash: UNTOUCHED } });
}

describe("search sync after an index run rebuilds only what the run rewrote", () => {
  let root = "";
  let projectId = "";
  let tick = 1_800_000_000;
  const git = (...args: string[]) =>
    execFileSync("git", ["-C", root, ...args], { stdio: "pipe", env: { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@e", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@e" } });

  beforeAll(async () => {
    root = copySampleProject();
    git("init", "-q", "-b", "main");
    git("add", "-A");
    git("commit", "-qm", "Initial sample");
    setAllMtimes(root, tick);
    projectId = (await indexFolder(root)).projectId;
  });

  it("a re-index with no change touches no search row", async () => {
    await mark(projectId, "topic", "JIRA-123");
    await mark(projectId, "knowledge", "knowledge/product/billing.md");
    const { stats } = await indexFolder(root);
    expect(stats.filesChanged + stats.filesRemoved).toBe(0);
    // A full comparison would have found both hashes wrong and rewritten the rows.
    expect((await entry(projectId, "topic", "JIRA-123"))?.hash).toBe(UNTOUCHED);
    expect((await entry(projectId, "knowledge", "knowledge/product/billing.md"))?.hash).toBe(UNTOUCHED);
  });

  it("one changed state.json rewrites its topic's entry and no other", async () => {
    await mark(projectId, "topic", "JIRA-123");
    const other = (await getDb()).searchEntry.findFirst({ where: { projectId, kind: "topic", ref: { not: "JIRA-123" } }, select: { ref: true } });
    const otherRef = (await other)!.ref;
    await mark(projectId, "topic", otherRef);
    const file = path.join(".claude/work/JIRA-123/state.json");
    const state = JSON.parse(fs.readFileSync(path.join(root, file), "utf8")) as Record<string, unknown>;
    editFile(root, file, JSON.stringify({ ...state, title: "Quetzalcoatl export retry" }, null, 2), ++tick);
    const { stats } = await indexFolder(root);
    expect(stats.filesChanged).toBe(1);
    expect((await entry(projectId, "topic", "JIRA-123"))?.hash).not.toBe(UNTOUCHED);
    expect((await runSearch({ q: "quetzalcoatl", project: projectId, kind: "topic" })).hits.map((h) => h.ref)).toEqual(["JIRA-123"]);
    expect((await entry(projectId, "topic", otherRef))?.hash).toBe(UNTOUCHED);
  });

  it("a changed product document rewrites its entry; a removed one loses it", async () => {
    await mark(projectId, "knowledge", "knowledge/product/billing.md");
    editFile(root, "knowledge/product/exports.md", "# Exports\n\nThe axolotl exporter writes nightly.\n", ++tick);
    await indexFolder(root);
    expect((await runSearch({ q: "axolotl", project: projectId })).hits.map((h) => h.ref)).toEqual(["knowledge/product/exports.md"]);
    expect((await entry(projectId, "knowledge", "knowledge/product/billing.md"))?.hash).toBe(UNTOUCHED);

    fs.rmSync(path.join(root, "knowledge/product/exports.md"));
    await indexFolder(root);
    expect(await entry(projectId, "knowledge", "knowledge/product/exports.md")).toBeNull();
    expect((await runSearch({ q: "axolotl", project: projectId })).total).toBe(0);
  });

  it("a new work folder adds its topic's entry; removing the folder removes it", async () => {
    const b = new ProjectBuilder().workState("ANT-1", { type: "task", status: "in_progress", title: "Anteater" });
    const { projectId: id } = await indexFolder(b.root);
    b.workState("OKAPI-9", { type: "task", status: "in_progress", title: "Okapi ledger" });
    await indexFolder(b.root);
    expect((await runSearch({ q: "okapi", project: id, kind: "topic" })).hits.map((h) => h.ref)).toEqual(["OKAPI-9"]);
    await mark(id, "topic", "ANT-1");
    fs.rmSync(b.abs(".claude/work/OKAPI-9"), { recursive: true });
    await indexFolder(b.root);
    expect(await entry(id, "topic", "OKAPI-9")).toBeNull();
    expect((await runSearch({ q: "okapi", project: id })).total).toBe(0);
    expect((await entry(id, "topic", "ANT-1"))?.hash).toBe(UNTOUCHED);
  });

  it("a new commit adds its entry", async () => {
    fs.writeFileSync(path.join(root, "NOTES.txt"), "notes\n");
    git("add", "-A");
    git("commit", "-qm", "Tapir the release notes");
    await indexFolder(root);
    expect((await runSearch({ q: "tapir", project: projectId })).hits.map((h) => h.kind)).toEqual(["commit"]);
  });

  it("an entry missing from the index is restored by the count check on the next re-index", async () => {
    const db = await getDb();
    await db.searchEntry.delete({ where: { projectId_kind_ref: { projectId, kind: "knowledge", ref: "knowledge/product/billing.md" } } });
    await db.searchEntry.delete({ where: { projectId_kind_ref: { projectId, kind: "topic", ref: "JIRA-123" } } });
    const { stats } = await indexFolder(root);
    expect(stats.filesChanged + stats.filesRemoved).toBe(0);
    expect(await entry(projectId, "knowledge", "knowledge/product/billing.md")).not.toBeNull();
    expect(await entry(projectId, "topic", "JIRA-123")).not.toBeNull();
  });
});
