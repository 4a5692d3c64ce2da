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

/** The team-mode server of playwright.config.ts (accounts and roles), two ports above the local one. */
export const TEAM_URL = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3210) + 2}`;

/** Read-only look at the team-mode server's database. */
export function teamDbQuery<T>(sql: string, ...params: unknown[]): T[] {
  const file = path.join(`${process.env.E2E_DATA_DIR ?? ".tmp/e2e-data"}-team`, "workbench.db");
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}
