import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db/client";
import { databaseKind } from "../../lib/db/database-url";
import { listMigrations, migrationNames } from "../../lib/db/migrate";
import { appliedMigrations, collabTarget, health, readiness } from "../../lib/ops/readiness";
import { makeTempDir, removeTempDirs } from "../helpers/project-builder";
import { GET as healthRoute } from "../../app/api/health/route";
import { GET as readyRoute } from "../../app/api/ready/route";

afterAll(removeTempDirs);

describe("health", () => {
  it("reports the version and uptime without touching the database", () => {
    const h = health();
    expect(h).toMatchObject({ status: "ok", version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
    expect(h.uptimeSeconds).toBeGreaterThanOrEqual(0);
  });
});

describe("readiness", () => {
  beforeAll(async () => {
    await getDb(); // migrates
  });

  it("is ready on a migrated database", async () => {
    const names = migrationNames(databaseKind());
    expect((await appliedMigrations()).sort()).toEqual(names);
    const r = await readiness({ collab: null });
    expect(r.status).toBe("ready");
    expect(r.checks.database).toEqual({ ok: true, message: "reachable" });
    expect(r.checks.migrations).toEqual({ ok: true, message: `${names.length} applied` });
  });

  it("is not ready when a migration row is missing, and ready again once migrated", async () => {
    const db = await getDb();
    const last = (await listMigrations(databaseKind())).at(-1)!;
    const row = (await db.$queryRawUnsafe<{ name: string; checksum: string; applied_at: string }[]>(`SELECT name, checksum, applied_at FROM _workbench_migrations WHERE name = '${last.name}'`))[0]!;
    await db.$executeRawUnsafe(`DELETE FROM _workbench_migrations WHERE name = '${last.name}'`);
    try {
      const r = await readiness({ collab: null });
      expect(r.status).toBe("not_ready");
      expect(r.checks.database!.ok).toBe(true);
      expect(r.checks.migrations).toEqual({ ok: false, message: expect.stringContaining(last.name) });
    } finally {
      await db.$executeRawUnsafe(`INSERT INTO _workbench_migrations (name, checksum, applied_at) VALUES ('${row.name}', '${row.checksum}', '${row.applied_at}')`);
    }
    expect((await readiness({ collab: null })).status).toBe("ready");
  });

  it("is not ready once a newer version applied a migration this one does not know", async () => {
    const db = await getDb();
    await db.$executeRawUnsafe("INSERT INTO _workbench_migrations (name, checksum, applied_at) VALUES ('99991231000000_future', 'x', 'now')");
    try {
      const r = await readiness({ collab: null });
      expect(r.status).toBe("not_ready");
      expect(r.checks.migrations).toEqual({ ok: false, message: "applied migrations this version does not know: 99991231000000_future" });
    } finally {
      await db.$executeRawUnsafe("DELETE FROM _workbench_migrations WHERE name = '99991231000000_future'");
    }
  });

  it("the routes answer 200 / 503 with the checks, never cached", async () => {
    const h = healthRoute();
    expect(h.status).toBe(200);
    expect(h.headers.get("cache-control")).toBe("no-store");
    expect(await h.json()).toMatchObject({ status: "ok" });
    const saved = { port: process.env.WORKBENCH_COLLAB_PORT, url: process.env.DATABASE_URL };
    delete process.env.WORKBENCH_COLLAB_PORT;
    try {
      const ok = await readyRoute();
      expect(ok.status).toBe(200);
      expect(await ok.json()).toMatchObject({ status: "ready", checks: { database: { ok: true }, migrations: { ok: true } } });
      process.env.DATABASE_URL = databaseKind() === "postgres" ? "postgresql://postgres@127.0.0.1:1/nowhere" : `file:${path.join(makeTempDir("wb-ready-"), "none", "x.db")}`;
      const down = await readyRoute();
      expect(down.status).toBe(503);
      expect(await down.json()).toMatchObject({ status: "not_ready", checks: { database: { ok: false } } });
    } finally {
      process.env.DATABASE_URL = saved.url;
      if (saved.port !== undefined) process.env.WORKBENCH_COLLAB_PORT = saved.port;
    }
  });

  it("is not ready, naming the database, when it is unreachable; no stack trace or password leaks", async () => {
    const url = databaseKind() === "postgres" ? "postgresql://postgres:s3cret@127.0.0.1:1/nowhere" : `file:${path.join(makeTempDir("wb-ready-"), "missing", "none.db")}`;
    const r = await readiness({ url, collab: null });
    expect(r.status).toBe("not_ready");
    expect(r.checks.database).toMatchObject({ ok: false, message: expect.stringMatching(/^unreachable: /) });
    expect(r.checks.migrations!.ok).toBe(false);
    const text = JSON.stringify(r);
    expect(text).not.toMatch(/s3cret|\n\s+at /);
  });

  it("checks the co-editing server when one was started for this process", async () => {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as net.AddressInfo).port;
    try {
      expect(collabTarget({ WORKBENCH_COLLAB_PORT: String(port), WORKBENCH_COLLAB_HOST: "0.0.0.0" })).toEqual({ host: "127.0.0.1", port });
      expect(collabTarget({})).toBeNull();
      const up = await readiness({ collab: { host: "127.0.0.1", port } });
      expect(up).toMatchObject({ status: "ready", checks: { collab: { ok: true } } });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    const down = await readiness({ collab: { host: "127.0.0.1", port } });
    expect(down.status).toBe("not_ready");
    expect(down.checks.collab).toMatchObject({ ok: false, message: expect.stringContaining(`127.0.0.1:${port}`) });
  });
});
