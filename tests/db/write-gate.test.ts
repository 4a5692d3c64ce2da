import { afterAll, describe, expect, it } from "vitest";
import { closeDb, getDb } from "../../lib/db/client";
import { databaseKind } from "../../lib/db/database-url";
import { readSql, withSqlTransaction } from "../../lib/db/sql-tx";
import { onWriteWaiting } from "../../lib/db/write-gate";

afterAll(closeDb);

/**
 * Resolves once a write labelled `label` waits for the one holding the database: on SQLite it
 * queues in this process's write gate (had it gone to SQLite instead, better-sqlite3 would have
 * blocked this thread until the busy timeout failed it); on PostgreSQL its statement waits for
 * the other transaction's row lock. Call it before the write is issued, await it after: the
 * holder then goes on, certain the write was already waiting for it.
 */
function waitingWrite(label: string): Promise<void> {
  if (databaseKind() === "postgres") {
    return expect
      .poll(async () => (await readSql<{ n: number }>(`SELECT count(*)::int AS "n" FROM pg_stat_activity WHERE "datname" = current_database() AND "wait_event_type" = 'Lock'`))[0]!.n, {
        timeout: 15_000,
        message: `${label} waits for the row lock`,
      })
      .toBe(1);
  }
  return new Promise<void>((resolve, reject) => {
    const failed = setTimeout(() => {
      stop();
      reject(new Error(`${label} never queued behind the open transaction`));
    }, 15_000);
    const stop = onWriteWaiting((waiting) => {
      if (waiting !== label) return;
      clearTimeout(failed);
      stop();
      resolve();
    });
  });
}

/**
 * better-sqlite3 waits for a lock synchronously. A write from this process while the index's
 * own transaction is open used to block the thread that had to finish that transaction, until
 * the busy timeout (10 s) failed the write: a server index job's progress update did this.
 */
describe("writes from one process", () => {
  it("a Prisma write issued inside an open plain-SQL transaction waits for it and then lands", async () => {
    const db = await getDb();
    const project = await db.project.create({ data: { name: "gate", rootPath: `/tmp/write-gate-${Date.now()}` } });
    let write: Promise<unknown> | undefined;
    await withSqlTransaction(async (tx) => {
      await tx.run(`UPDATE "Project" SET "name" = ? WHERE "id" = ?`, ["inside", project.id]);
      const waiting = waitingWrite("Prisma Project.update");
      // Prisma sends a query only once something awaits it: `then` sends it now.
      write = db.project.update({ where: { id: project.id }, data: { name: "after" } }).then((p) => p);
      await waiting;
      await tx.run(`UPDATE "Project" SET "configJson" = ? WHERE "id" = ?`, ["{}", project.id]);
    });
    await expect(write).resolves.toBeTruthy();
    expect((await db.project.findUniqueOrThrow({ where: { id: project.id } })).name).toBe("after");
  });

  it("a plain-SQL transaction started inside a Prisma transaction's callback waits for it", async () => {
    const db = await getDb();
    const project = await db.project.create({ data: { name: "gate-2", rootPath: `/tmp/write-gate-2-${Date.now()}` } });
    let inner: Promise<unknown> | undefined;
    await db.$transaction(async (tx) => {
      await tx.project.update({ where: { id: project.id }, data: { name: "prisma" } });
      const waiting = waitingWrite("a plain-SQL write transaction");
      inner = withSqlTransaction((sql) => sql.run(`UPDATE "Project" SET "name" = ? WHERE "id" = ?`, ["plain", project.id]));
      await waiting;
      await tx.project.update({ where: { id: project.id }, data: { configJson: "{}" } });
    });
    await expect(inner).resolves.toBeUndefined();
    expect((await db.project.findUniqueOrThrow({ where: { id: project.id } })).name).toBe("plain");
  });

  it("writes inside a gated transaction do not wait for themselves", async () => {
    const db = await getDb();
    const project = await db.project.create({ data: { name: "gate-3", rootPath: `/tmp/write-gate-3-${Date.now()}` } });
    await db.$transaction(async (tx) => {
      await tx.project.update({ where: { id: project.id }, data: { name: "one" } });
      await tx.project.update({ where: { id: project.id }, data: { name: "two" } });
    });
    await db.$transaction([db.project.update({ where: { id: project.id }, data: { name: "three" } })]);
    expect((await db.project.findUniqueOrThrow({ where: { id: project.id } })).name).toBe("three");
  });

  it("a write left running by a Prisma transaction's callback queues once the transaction has ended", async () => {
    const db = await getDb();
    const project = await db.project.create({ data: { name: "gate-4", rootPath: `/tmp/write-gate-4-${Date.now()}` } });
    let late: Promise<unknown> | undefined;
    let startLate!: () => void;
    const lateStarts = new Promise<void>((r) => (startLate = r));
    await db.$transaction(async (tx) => {
      await tx.project.update({ where: { id: project.id }, data: { name: "in-tx" } });
      // Registered inside the callback, so the write carries the transaction's async context;
      // it is issued after the transaction has ended, while the plain-SQL one below holds the database.
      void lateStarts.then(() => (late = db.project.update({ where: { id: project.id }, data: { name: "late" } })));
    });
    await withSqlTransaction(async (tx) => {
      await tx.run(`UPDATE "Project" SET "configJson" = ? WHERE "id" = ?`, ['{"a":1}', project.id]);
      const waiting = waitingWrite("Prisma Project.update");
      startLate();
      await waiting;
      await tx.run(`UPDATE "Project" SET "configJson" = ? WHERE "id" = ?`, ['{"a":2}', project.id]);
    });
    await expect(late).resolves.toBeTruthy();
    expect((await db.project.findUniqueOrThrow({ where: { id: project.id } })).name).toBe("late");
  });

  it("a Prisma transaction started inside another one's callback is refused at once on SQLite", async () => {
    const db = await getDb();
    const nested = db.$transaction(async () => db.$transaction(async () => 1));
    // On SQLite it would wait for the first forever; PostgreSQL runs it on another pooled connection.
    if (databaseKind() === "sqlite") await expect(nested).rejects.toThrow(/inside another one's callback/);
    else await expect(nested).resolves.toBe(1);
    // The queue is free again.
    await expect(db.$transaction(async () => 2)).resolves.toBe(2);
  });

  it("a client made with $extends still queues its transactions", async () => {
    const db = await getDb();
    const project = await db.project.create({ data: { name: "gate-5", rootPath: `/tmp/write-gate-5-${Date.now()}` } });
    const extended = db.$extends({}) as unknown as typeof db;
    let inner: Promise<unknown> | undefined;
    await extended.$transaction(async (tx) => {
      await tx.project.update({ where: { id: project.id }, data: { name: "extended" } });
      const waiting = waitingWrite("a plain-SQL write transaction");
      inner = withSqlTransaction((sql) => sql.run(`UPDATE "Project" SET "name" = ? WHERE "id" = ?`, ["plain", project.id]));
      await waiting;
    });
    await expect(inner).resolves.toBeUndefined();
    expect((await db.project.findUniqueOrThrow({ where: { id: project.id } })).name).toBe("plain");
  });
});
