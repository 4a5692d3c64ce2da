import Database from "better-sqlite3";
import type { Page } from "@playwright/test";
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

/**
 * What a page does wrong while a test uses it: console errors and warnings, page errors,
 * failed requests and HTTP errors. A navigation cancels the requests of the page it leaves
 * (prefetches among them): that is no failure.
 */
export function pageProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error" || m.type() === "warning") problems.push(`console ${m.type()} on ${page.url()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`page error on ${page.url()}: ${e.message}`));
  page.on("requestfailed", (r) => {
    if (r.failure()?.errorText !== "net::ERR_ABORTED") problems.push(`request failed: ${r.method()} ${r.url()} (${r.failure()?.errorText})`);
  });
  page.on("response", (r) => {
    if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.request().method()} ${r.url()}`);
  });
  return problems;
}
