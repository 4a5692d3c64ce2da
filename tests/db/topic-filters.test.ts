/**
 * The inventory's filters as plain SQL (lib/db/repositories/topics.ts): text matches slug or
 * title in any case, LIKE wildcards in the text are only text, sources and status narrow, and
 * pages follow the inventory order. Run on SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listTopics } from "../../lib/db/repositories/topic-pages";
import { indexFolder, topicTable } from "../helpers/db";
import { copySampleProject, removeTempDirs } from "../helpers/project-builder";

afterAll(removeTempDirs);

describe("inventory filters", () => {
  let projectId: string;
  let all: Awaited<ReturnType<typeof topicTable>>;
  beforeAll(async () => {
    ({ projectId } = await indexFolder(copySampleProject()));
    all = await topicTable(projectId);
  });

  it("text matches the slug or the title in any case", async () => {
    expect((await listTopics(projectId, { q: "jira" })).rows.map((r) => r.slug)).toEqual(["JIRA-123"]);
    const byTitle = await listTopics(projectId, { q: "EXPORT" });
    expect(byTitle.rows.map((r) => r.slug).sort()).toEqual(
      all
        .filter((t) => /export/i.test(t.slug) || /export/i.test(t.title ?? ""))
        .map((t) => t.slug)
        .sort(),
    );
    expect(byTitle.total).toBe(byTitle.rows.length);
  });

  it("% and _ in the text match only themselves", async () => {
    expect((await listTopics(projectId, { q: "%" })).total).toBe(0);
    expect((await listTopics(projectId, { q: "JIRA_123" })).total).toBe(0);
    expect((await listTopics(projectId, { q: "JIRA-12_" })).total).toBe(0);
  });

  it("source and status narrow; the statuses stay those of the whole project", async () => {
    const work = await listTopics(projectId, { source: "work", status: "in_progress" });
    expect(work.rows.map((r) => r.slug).sort()).toEqual(
      all
        .filter((t) => t.sources.includes("work") && t.status === "in_progress")
        .map((t) => t.slug)
        .sort(),
    );
    expect(work.statuses).toEqual([...new Set(all.map((t) => t.status).filter((s): s is string => s !== null))].sort());
  });

  it("pages follow the inventory order: most recent first, undated last, then by slug", async () => {
    const first = await listTopics(projectId, { pageSize: 4, page: 1 });
    const second = await listTopics(projectId, { pageSize: 4, page: 2 });
    const third = await listTopics(projectId, { pageSize: 4, page: 3 });
    const inventoryOrder = [...all].sort((a, b) => (a.updatedAt === b.updatedAt ? (a.slug < b.slug ? -1 : 1) : a.updatedAt === null ? 1 : b.updatedAt === null ? -1 : a.updatedAt > b.updatedAt ? -1 : 1));
    expect([...first.rows, ...second.rows, ...third.rows].map((r) => r.slug)).toEqual(inventoryOrder.map((t) => t.slug));
    expect(first.total).toBe(all.length);
  });
});
