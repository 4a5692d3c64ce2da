/**
 * SQL statements behind the pages that serve under load (issue 18): the sidebar on every page,
 * a project page's header, a topic page and the inventory. Counted with the query counter of
 * lib/db/query-stats.ts, so a loader that goes back to one query per project, or a topic page
 * that recomputes load-context on every view, fails here rather than only in the benchmark.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countQueries } from "../../lib/db/query-stats";
import { getProjectHead, listProjectNames } from "../../lib/db/repositories/projects";
import { listRuns } from "../../lib/db/repositories/runs";
import { listTopics } from "../../lib/db/repositories/topic-pages";
import { runForProject } from "../../lib/deep-context/service";
import { inventoryPage, loadContextForProject } from "../../lib/inventory/service";
import { listPackets } from "../../lib/packets/service";
import { savedViews } from "../../lib/views/service";
import { indexFolder, topicTable } from "../helpers/db";
import { copySampleProject, removeTempDirs } from "../helpers/project-builder";
import { buildSampleRepo } from "../helpers/sample-project";

// Before the database is first opened in this file (tests/db/setup.ts gives each file its own).
process.env.WORKBENCH_QUERY_STATS = "1";

afterAll(removeTempDirs);

describe("statements per page", () => {
  let projectId: string;
  let root: string;

  beforeAll(async () => {
    root = (await buildSampleRepo()).targetDir;
    ({ projectId } = await indexFolder(root));
    // More projects must not mean more statements for the sidebar or a project page.
    await indexFolder(copySampleProject());
    await indexFolder(copySampleProject());
  });

  it("the sidebar's project list is one statement, whatever the number of projects", async () => {
    const { result, queries } = await countQueries(() => listProjectNames(null));
    expect(result).toHaveLength(3);
    expect(queries).toBe(1);
  });

  it("a project page's header is one statement", async () => {
    const { result, queries } = await countQueries(() => getProjectHead(projectId));
    expect(result.name).toBeTruthy();
    expect(queries).toBe(1);
  });

  it("a topic page: at most 3 statements once its load-context is computed, and at most 4 more the first time", async () => {
    const page = () =>
      countQueries(async () => {
        await listProjectNames(null); // the layout's sidebar
        const project = await getProjectHead(projectId); // loadProjectOr404
        const loaded = await loadContextForProject(project, "JIRA-123");
        await listPackets(projectId, { topicSlug: "JIRA-123" });
        return loaded;
      });
    const first = await page();
    expect(first.result.result.mode).toBe("exact");
    expect(first.result.result.priorArt).toHaveLength(1);
    expect(first.queries).toBeGreaterThan(3);
    expect(first.queries).toBeLessThanOrEqual(7);
    const again = await page();
    expect(again.result.markdown).toBe(first.result.markdown);
    expect(again.queries).toBeLessThanOrEqual(3);
  });

  it("a re-index that changes what a topic shows is seen on the next view", async () => {
    const before = await loadContextForProject(projectId, "JIRA-123");
    const state = path.join(root, ".claude", "work", "JIRA-123", "state.json");
    const json = JSON.parse(fs.readFileSync(state, "utf8")) as { updates?: { timestamp: string; note: string }[] };
    json.updates = [...(json.updates ?? []), { timestamp: "2026-03-01T10:00:00Z", note: "Re-indexed while the page was cached" }];
    fs.writeFileSync(state, JSON.stringify(json, null, 2));
    await indexFolder(root);
    const after = await loadContextForProject(projectId, "JIRA-123");
    expect(before.markdown).not.toContain("Re-indexed while the page was cached");
    expect(after.markdown).toContain("Re-indexed while the page was cached");
  });

  it("the inventory: at most 5 statements (3 more than the sidebar and header)", async () => {
    const { result, queries } = await countQueries(async () => {
      await listProjectNames(null);
      const project = await getProjectHead(projectId);
      const [topics] = await Promise.all([listTopics(projectId, {}), savedViews(project, "inventory")]);
      return topics;
    });
    expect(result.total).toBe((await topicTable(projectId)).length);
    expect(queries).toBeLessThanOrEqual(5);
    // The status filter's choices: each status once, in order, none for topics without one.
    const expected = [...new Set((await topicTable(projectId)).map((t) => t.status).filter((x): x is string => x !== null))].sort();
    expect(expected.length).toBeGreaterThan(2);
    expect(result.statuses).toEqual(expected);
  });

  it("the inventory page again: no statement until the next index write, whose topics it then shows", async () => {
    const head = await getProjectHead(projectId);
    const first = await inventoryPage(head, {});
    const again = await countQueries(() => inventoryPage(head, {}));
    expect(again.queries).toBe(0);
    expect(again.result).toBe(first);
    const state = path.join(root, ".claude", "work", "JIRA-123", "state.json");
    const json = JSON.parse(fs.readFileSync(state, "utf8")) as { title: string };
    fs.writeFileSync(state, JSON.stringify({ ...json, title: "User Export Feature, renamed while the inventory was cached" }, null, 2));
    await indexFolder(root);
    const after = await inventoryPage(await getProjectHead(projectId), {});
    expect(first.rows.find((t) => t.slug === "JIRA-123")?.title).not.toContain("renamed");
    expect(after.rows.find((t) => t.slug === "JIRA-123")?.title).toBe("User Export Feature, renamed while the inventory was cached");
  });

  it("a filtered inventory page counts what matches", async () => {
    const all = await topicTable(projectId);
    const { result, queries } = await countQueries(() => listTopics(projectId, { status: "in_progress" }));
    expect(result.total).toBe(all.filter((t) => t.status === "in_progress").length);
    expect(result.total).toBeGreaterThan(0);
    expect(result.total).toBeLessThan(all.length);
    expect(queries).toBe(3);
  });

  it("the bundled run's page: at most 5 statements", async () => {
    const project = await getProjectHead(projectId);
    const run = (await listRuns(projectId)).find((r) => r.loopType === "context" && r.relPath.includes("sqlite-to-turso"));
    expect(run).toBeDefined();
    await runForProject(project, run!.id); // computes the view once, as the index job's warm-up does
    const { result, queries } = await countQueries(async () => {
      await listProjectNames(null);
      const head = await getProjectHead(projectId);
      const [page] = await Promise.all([runForProject(head, run!.id), savedViews(head, "findings")]);
      return page;
    });
    expect(result.view).not.toBeNull();
    expect(queries).toBeLessThanOrEqual(5);
  });
});
