import Database from "better-sqlite3";
import path from "node:path";

/** Read-only look at the server's database, to check what a UI action stored. */
export function dbQuery<T>(sql: string, ...params: unknown[]): T[] {
  const file = path.join(process.env.E2E_DATA_DIR ?? ".tmp/e2e-data", "workbench.db");
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

export function sampleDir(): string {
  return process.env.E2E_SAMPLE_DIR ?? path.resolve(".tmp/e2e-sample");
}
