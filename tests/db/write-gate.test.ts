import { afterAll, describe, expect, it } from "vitest";
import { closeDb, getDb } from "../../lib/db/client";
import { withSqlTransaction } from "../../lib/db/sql-tx";

afterAll(closeDb);

/** Long enough for a Prisma query to reach SQLite (it is compiled and planned first). */
const pause = () => new Promise((r) => setTimeout(r, 300));

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
      write = db.project.update({ where: { id: project.id }, data: { name: "after" } });
      await pause();
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
      inner = withSqlTransaction((sql) => sql.run(`UPDATE "Project" SET "name" = ? WHERE "id" = ?`, ["plain", project.id]));
      await pause();
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
});
