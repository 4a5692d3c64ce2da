import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseKind } from "../../lib/db/database-url";
import { listMigrations, migratePostgres, migrateSqlite } from "../../lib/db/migrate";
import { HIGHLIGHT_END, HIGHLIGHT_START } from "../../lib/search/schemas";
import { runSearch } from "../../lib/search/service";
import { indexFolder } from "../helpers/db";
import { ProjectBuilder, copySampleProject, makeTempDir, removeTempDirs } from "../helpers/project-builder";

afterAll(removeTempDirs);

const marked = (w: string) => `${HIGHLIGHT_START}${w}${HIGHLIGHT_END}`;
const STEMS_MIGRATION = "20261203090000_search_stems_kb";

describe("search: the knowledge base's docs, and stemmed words", () => {
  let sampleId = "";
  let kbId = "";

  beforeAll(async () => {
    sampleId = (await indexFolder(copySampleProject())).projectId;
    const kb = new ProjectBuilder()
      .workState("KB-1", { type: "epic", status: "in_progress", title: "Knowledge base fixture" })
      .file("docs/_index.md", "# Docs\n\n## Sections\n- [runbooks/](./runbooks/) — on-call\n- [decisions/](./decisions/) — ADRs\n")
      .file("docs/runbooks/_index.md", "# Runbooks\n\n## Content\n- [redelivery.md](./redelivery.md) — failed deliveries\n")
      .file("docs/runbooks/redelivery.md", "# Redelivering failed deliveries\n\nWhen webhooks fail, the dispatcher queues them for redelivery.\n")
      .file("docs/decisions/0007-quorum-reads.md", "# ADR 0007 — Quorum reads\n\nAccepted: reads go to a quillwort quorum of replicas.\n")
      // Other forms of an identifier, many times and in the title: stemmed alike, ranked high by bm25.
      .file("docs/runbooks/export-jobs.md", "# exportJobs and exportJobs\n\nThe exportJobs table lists exportJobs; exportJobs retry. exportJobs exportJobs exportJobs.\n")
      .file("docs/runbooks/export-worker.md", "# Worker notes\n\nThe worker calls exportJob once per tenant.\n")
      .file("docs/decisions/auth.md", "# Defined auth contracts\n\nThe defined auth contracts: defined auth contracts everywhere, defined auth contracts.\n")
      .file("docs/decisions/auth-task.md", "# Task list\n\nNext up: define-auth-contract for the gateway.\n")
      // Not the knowledge base: only markdown is read, as the context-loader reads it.
      .file("docs/diagram.txt", "quillwort as plain text\n");
    kbId = (await indexFolder(kb.root)).projectId;
  });

  it("finds a runbook and a decision record of docs/ by their words, each linking to its document page", async () => {
    const runbook = await runSearch({ q: "resend", project: sampleId });
    expect(runbook.hits.map((h) => [h.kind, h.ref])).toEqual([["kb", "docs/runbooks/payment-webhook-replay.md"]]);
    expect(runbook.hits[0]!.title).toBe("Runbook — replay a missed payment webhook");
    expect(runbook.hits[0]!.href).toBe(`/projects/${sampleId}/documents?path=${encodeURIComponent("docs/runbooks/payment-webhook-replay.md")}`);
    expect(runbook.hits[0]!.snippet).toContain(marked("Resend"));

    const adr = await runSearch({ q: "quillwort", project: kbId });
    expect(adr.hits.map((h) => [h.kind, h.ref])).toEqual([["kb", "docs/decisions/0007-quorum-reads.md"]]);
    expect(adr.facets.kind).toEqual([{ value: "kb", label: "kb", count: 1 }]);
  });

  it("a word finds its other forms (webhook finds webhooks), with the form found marked", async () => {
    const r = await runSearch({ q: "webhook", project: kbId });
    expect(r.hits.map((h) => h.ref)).toEqual(["docs/runbooks/redelivery.md"]);
    expect(r.hits[0]!.snippet).toContain(marked("webhooks"));
    expect((await runSearch({ q: "redelivered failing", project: kbId })).hits.map((h) => h.ref)).toEqual(["docs/runbooks/redelivery.md"]);
    // A prefix is matched as typed, as before.
    expect((await runSearch({ q: "webho*", project: kbId })).hits.map((h) => h.ref)).toEqual(["docs/runbooks/redelivery.md"]);
  });

  it("an exact identifier ranks its exact match first, above other forms of it used more often", async () => {
    const job = await runSearch({ q: "exportJob", project: kbId });
    expect(job.hits.map((h) => h.ref)).toEqual(["docs/runbooks/export-worker.md", "docs/runbooks/export-jobs.md"]);
    expect(job.hits[0]!.score).toBeGreaterThan(job.hits[1]!.score);
    const contract = await runSearch({ q: "define-auth-contract", project: kbId });
    expect(contract.hits.map((h) => h.ref)).toEqual(["docs/decisions/auth-task.md", "docs/decisions/auth.md"]);
    // A file name is an identifier too.
    expect((await runSearch({ q: "redelivery.md", project: kbId })).hits[0]?.ref).toBe("docs/runbooks/redelivery.md");
    const jira = await runSearch({ q: "JIRA-123", project: sampleId });
    expect([jira.hits[0]?.kind, jira.hits[0]?.ref]).toEqual(["topic", "JIRA-123"]);
  });

  it("ranks the words as typed above any number of other forms, on a page of any size, and fills it through the filters", async () => {
    const b = new ProjectBuilder().workState("EXP-1", { type: "epic", status: "in_progress", title: "exportJobs runner" }).file("docs/_index.md", "# Docs\n");
    // More entries with another form, each ranked above the exact one by bm25, than any page holds.
    for (let i = 0; i < 60; i++) b.file(`docs/jobs-${String(i).padStart(2, "0")}.md`, `# exportJobs ${i}\n\nexportJobs exportJobs exportJobs.\n`);
    b.file("docs/worker.md", `# Worker\n\n${"The worker runs nightly. ".repeat(40)}It calls exportJob once.\n`);
    const { projectId } = await indexFolder(b.root);
    const one = await runSearch({ q: "exportJob", project: projectId, limit: 1 });
    expect(one.hits.map((h) => h.ref)).toEqual(["docs/worker.md"]);
    // The 61 docs, the topic and its state.json.
    expect(one.total).toBe(63);
    const five = await runSearch({ q: "exportJob", project: projectId, limit: 5 });
    expect(five.hits[0]!.ref).toBe("docs/worker.md");
    expect(five.hits.slice(1).every((h) => h.ref.startsWith("docs/jobs-"))).toBe(true);
    // The exact match filtered out: the other forms still fill the page.
    const topics = await runSearch({ q: "exportJob", project: projectId, kind: ["topic"] });
    expect(topics.hits.map((h) => [h.kind, h.ref])).toEqual([["topic", "EXP-1"]]);
    expect(topics.total).toBe(1);
    expect(topics.facets.kind).toEqual([
      { value: "topic", label: "topic", count: 1 },
      { value: "document", label: "document", count: 1 },
      { value: "kb", label: "kb", count: 61 },
    ]);
  });

  it("a docs/ file that changes or goes is searched as it is now", async () => {
    const b = new ProjectBuilder().file("docs/_index.md", "# Docs\n").file("docs/runbook.md", "# Runbook\n\nRotate the zanzibar keys.\n");
    const { projectId } = await indexFolder(b.root);
    expect((await runSearch({ q: "zanzibar", project: projectId })).total).toBe(1);
    b.file("docs/runbook.md", "# Runbook\n\nRotate the kumquat keys.\n");
    await indexFolder(b.root);
    expect((await runSearch({ q: "zanzibar", project: projectId })).total).toBe(0);
    expect((await runSearch({ q: "kumquat", project: projectId })).hits.map((h) => h.kind)).toEqual(["kb"]);
  });
});

describe("search: an index stored before stemming", () => {
  it("the migration stems every stored entry and makes each project list its files again", async () => {
    const before = (await listMigrations(databaseKind())).filter((m) => m.name < STEMS_MIGRATION);
    const seed = [
      `INSERT INTO "Project" ("id", "name", "rootPath", "updatedAt") VALUES ('p1', 'old', '/nowhere', CURRENT_TIMESTAMP)`,
      `INSERT INTO "IndexFreshness" ("projectId", "takenAt", "record") VALUES ('p1', CURRENT_TIMESTAMP, '{}')`,
    ];
    const entry = (title: string, body: string) =>
      `INSERT INTO "SearchEntry" ("projectId", "kind", "ref", "title", "body", "href", "hash"${databaseKind() === "postgres" ? `, "tsv"` : ""})
        VALUES ('p1', 'document', '${title}', '${title}', '${body}', '/x', 'h'${databaseKind() === "postgres" ? `, setweight(to_tsvector('workbench', '${title.toLowerCase()}'), 'A') || setweight(to_tsvector('workbench', '${body.toLowerCase()}'), 'B')` : ""})`;
    seed.push(entry("Webhooks", "retried deliveries of webhooks"), entry("Exports", "an exportJob runs"));

    if (databaseKind() === "sqlite") {
      const { default: Database } = await import("better-sqlite3");
      const file = `${makeTempDir("wb-stems-")}/old.db`;
      const db = new Database(file);
      try {
        for (const m of before) db.exec(m.sql);
        db.exec(`CREATE TABLE "_workbench_migrations" (name TEXT PRIMARY KEY, checksum TEXT NOT NULL, applied_at TEXT NOT NULL)`);
        for (const m of before) db.prepare(`INSERT INTO "_workbench_migrations" VALUES (?, ?, ?)`).run(m.name, m.checksum, "then");
        for (const sql of seed) db.exec(sql);
      } finally {
        db.close();
      }
      expect(await migrateSqlite(file)).toContain(STEMS_MIGRATION);
      const after = new Database(file, { readonly: true });
      try {
        const stemmed = (q: string) => after.prepare(`SELECT e."ref" FROM "SearchEntryStem" s JOIN "SearchEntry" e ON e."id" = s.rowid WHERE "SearchEntryStem" MATCH ?`).pluck().all(q);
        expect(stemmed("webhook")).toEqual(["Webhooks"]);
        expect(stemmed(`"retry" + "delivery"`)).toEqual(["Webhooks"]);
        expect(stemmed("exportjob")).toEqual(["Exports"]);
        expect(after.prepare(`SELECT count(*) FROM "IndexFreshness"`).pluck().get()).toBe(0);
      } finally {
        after.close();
      }
      return;
    }

    const { default: pg } = await import("pg");
    const base = new URL(process.env.DATABASE_URL!);
    const name = `${base.pathname.slice(1)}_stems`;
    const admin = new pg.Client({ connectionString: base.toString() });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${name}"`);
    await admin.query(`CREATE DATABASE "${name}"`);
    base.pathname = `/${name}`;
    const client = new pg.Client({ connectionString: base.toString() });
    await client.connect();
    try {
      for (const m of before) await client.query(m.sql);
      await client.query(`CREATE TABLE "_workbench_migrations" (name TEXT PRIMARY KEY, checksum TEXT NOT NULL, applied_at TEXT NOT NULL)`);
      for (const m of before) await client.query(`INSERT INTO "_workbench_migrations" VALUES ($1, $2, 'then')`, [m.name, m.checksum]);
      for (const sql of seed) await client.query(sql);
      expect(await migratePostgres(base.toString())).toContain(STEMS_MIGRATION);
      const stemmed = async (q: string) => (await client.query<{ ref: string }>(`SELECT "ref" FROM "SearchEntry" WHERE "tsvStem" @@ to_tsquery('workbench_stem', $1) ORDER BY "ref"`, [q])).rows.map((r) => r.ref);
      expect(await stemmed("webhook")).toEqual(["Webhooks"]);
      expect(await stemmed("retry <-> delivery")).toEqual(["Webhooks"]);
      expect(await stemmed("exportjob")).toEqual(["Exports"]);
      // Weights came along: the title's word is an A.
      expect((await client.query<{ v: string }>(`SELECT "tsvStem"::text AS v FROM "SearchEntry" WHERE "ref" = 'Webhooks'`)).rows[0]!.v).toContain("'webhook':1A");
      expect((await client.query(`SELECT 1 FROM "IndexFreshness"`)).rowCount).toBe(0);
    } finally {
      await client.end();
      await admin.query(`DROP DATABASE IF EXISTS "${name}"`);
      await admin.end();
    }
  });
});
