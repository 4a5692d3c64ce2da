import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { readEnv, type EnvSource } from "../core/env";
import { appRoot } from "../db/app-root";
import { databaseKind, postgresUrl, sqliteFileUrl } from "../db/database-url";
import { migrationNames } from "../db/migrate";

/**
 * Liveness and readiness for load balancers and orchestrators. Messages are short and
 * safe to expose: a probe must never leak a stack trace or a connection string.
 */
export interface Check {
  ok: boolean;
  message: string;
}

export interface Readiness {
  status: "ready" | "not_ready";
  checks: Record<string, Check>;
}

export interface Health {
  status: "ok";
  version: string;
  uptimeSeconds: number;
}

let version: string | undefined;

/** Liveness: answers from memory only, so a slow database never gets the process restarted. */
export function health(): Health {
  if (version === undefined) {
    try {
      version = (JSON.parse(fs.readFileSync(path.join(appRoot(), "package.json"), "utf8")) as { version?: string }).version ?? "unknown";
    } catch {
      version = "unknown";
    }
  }
  return { status: "ok", version, uptimeSeconds: Math.round(process.uptime()) };
}

const TIMEOUT_MS = 2000;

/** Names in `_workbench_migrations`, read over a short-lived connection of its own (not the app's pool). */
export async function appliedMigrations(url = readEnv("DATABASE_URL")): Promise<string[]> {
  if (databaseKind(url) === "postgres") {
    const { default: pg } = await import("pg");
    const client = new pg.Client({ connectionString: postgresUrl(url), connectionTimeoutMillis: TIMEOUT_MS, query_timeout: TIMEOUT_MS });
    await client.connect();
    try {
      const res = await client.query<{ name: string }>("SELECT name FROM _workbench_migrations");
      return res.rows.map((r) => r.name);
    } finally {
      await client.end().catch(() => undefined);
    }
  }
  const { default: Database } = await import("better-sqlite3");
  const db = new Database(sqliteFileUrl(url).slice("file:".length), { readonly: true, fileMustExist: true, timeout: TIMEOUT_MS });
  try {
    return (db.prepare("SELECT name FROM _workbench_migrations").all() as { name: string }[]).map((r) => r.name);
  } finally {
    db.close();
  }
}

/** A one-line reason without credentials (a pg error can quote the URL's host, never its password). */
function reason(e: unknown): string {
  const msg = e instanceof Error ? e.message : String(e);
  const code = (e as { code?: unknown }).code;
  const line = (msg.split("\n")[0] ?? "").replace(/postgres(ql)?:\/\/[^\s]*/gi, "postgresql://…").slice(0, 200);
  return typeof code === "string" && !line.includes(code) ? `${line} (${code})` : line;
}

export async function databaseCheck(read: () => Promise<string[]>, kind = databaseKind()): Promise<{ database: Check; migrations: Check }> {
  let applied: string[];
  try {
    applied = await read();
  } catch (e) {
    const msg = reason(e);
    if (/_workbench_migrations/.test(msg)) {
      return { database: { ok: true, message: "reachable" }, migrations: { ok: false, message: "no _workbench_migrations table: the database was never migrated" } };
    }
    return { database: { ok: false, message: `unreachable: ${msg}` }, migrations: { ok: false, message: "not checked: the database is unreachable" } };
  }
  const expected = migrationNames(kind);
  const have = new Set(applied);
  const missing = expected.filter((n) => !have.has(n));
  const known = new Set(expected);
  const unknown = applied.filter((n) => !known.has(n));
  const database = { ok: true, message: "reachable" };
  if (missing.length) return { database, migrations: { ok: false, message: `${missing.length} of ${expected.length} not applied: ${missing.join(", ")}` } };
  // A newer instance migrated the shared database: this one's code is out of date.
  if (unknown.length) return { database, migrations: { ok: false, message: `applied migrations this version does not know: ${unknown.join(", ")}` } };
  return { database, migrations: { ok: true, message: `${expected.length} applied` } };
}

/** Whether something accepts TCP connections at host:port (the co-editing server is a WebSocket server). */
export function tcpCheck(host: string, port: number, timeoutMs = TIMEOUT_MS): Promise<Check> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (c: Check) => {
      socket.destroy();
      resolve(c);
    };
    socket.setTimeout(timeoutMs, () => done({ ok: false, message: `no answer on ${host}:${port} within ${timeoutMs} ms` }));
    socket.once("connect", () => done({ ok: true, message: `listening on ${host}:${port}` }));
    socket.once("error", (e) => done({ ok: false, message: `not reachable on ${host}:${port}: ${reason(e)}` }));
  });
}

/**
 * Where `workbench serve` runs the co-editing server (it passes the port and host to the
 * dashboard's process); null when nothing started one, e.g. under `next dev`.
 */
export function collabTarget(env: EnvSource = process.env): { host: string; port: number } | null {
  let port: number | undefined;
  try {
    port = readEnv("WORKBENCH_COLLAB_PORT", env);
  } catch {
    // Not a port: nothing can be listening on it, so there is nothing to check.
    return null;
  }
  if (port === undefined) return null;
  const bound = readEnv("WORKBENCH_COLLAB_HOST", env) || readEnv("HOST", env) || "127.0.0.1";
  // A wildcard bind answers on loopback.
  const host = bound === "0.0.0.0" || bound === "::" ? "127.0.0.1" : bound;
  return { host, port };
}

export interface ReadinessDeps {
  /** DATABASE_URL by default. */
  url?: string;
  readApplied?: () => Promise<string[]>;
  collab?: { host: string; port: number } | null;
}

export async function readiness(deps: ReadinessDeps = {}): Promise<Readiness> {
  const url = deps.url ?? readEnv("DATABASE_URL");
  const target = deps.collab === undefined ? collabTarget() : deps.collab;
  const [db, collab] = await Promise.all([databaseCheck(deps.readApplied ?? (() => appliedMigrations(url)), databaseKind(url)), target ? tcpCheck(target.host, target.port) : null]);
  const checks: Record<string, Check> = { ...db };
  if (collab) checks.collab = collab;
  const ok = Object.values(checks).every((c) => c.ok);
  return { status: ok ? "ready" : "not_ready", checks };
}
