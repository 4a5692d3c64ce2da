import { readSql, withSqlTransaction } from "../sql-tx";

/**
 * The last complete index job's freshness record (lib/indexer/freshness.ts), as JSON text.
 * Plain SQL only: `workbench load-context` reads it before loading the Prisma client.
 */
export async function readFreshnessText(projectId: string): Promise<string | null> {
  const [row] = await readSql<{ record: string }>(`SELECT "record" FROM "IndexFreshness" WHERE "projectId" = ?`, [projectId]);
  return row?.record ?? null;
}

/** Whether the project has a record (without reading it). */
export async function hasFreshness(projectId: string): Promise<boolean> {
  return (await readSql<{ n: number }>(`SELECT 1 AS "n" FROM "IndexFreshness" WHERE "projectId" = ?`, [projectId])).length > 0;
}

/** Replaces the record (null: forgets it, as a job does when it starts). */
export async function saveFreshnessText(projectId: string, takenAt: Date, record: string | null): Promise<void> {
  await withSqlTransaction(async (tx) => {
    await tx.run(`DELETE FROM "IndexFreshness" WHERE "projectId" = ?`, [projectId]);
    if (record !== null) await tx.run(`INSERT INTO "IndexFreshness" ("projectId", "takenAt", "record") VALUES (?, ?, ?)`, [projectId, takenAt, record]);
  });
}
