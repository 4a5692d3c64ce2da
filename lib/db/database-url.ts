import path from "node:path";
import { readPlainEnv } from "../core/env-plain";

/** Where the embedded database and other local state live (WORKBENCH_DATA_DIR, default ./data). */
export function dataDir(): string {
  return path.resolve(/*turbopackIgnore: true*/ readPlainEnv("WORKBENCH_DATA_DIR") || path.join(/*turbopackIgnore: true*/ process.cwd(), "data"));
}

/** Where `workbench serve --sample` creates the bundled sample project. */
export function sampleProjectDir(): string {
  return path.join(dataDir(), "sample-project");
}

export type DatabaseKind = "sqlite" | "postgres";

/** PostgreSQL when DATABASE_URL says so; the embedded SQLite file otherwise. */
export function databaseKind(url = readPlainEnv("DATABASE_URL")): DatabaseKind {
  return url && /^postgres(ql)?:\/\//i.test(url) ? "postgres" : "sqlite";
}

/** A `file:` URL for the SQLite database, honouring DATABASE_URL=file:... when given. */
export function sqliteFileUrl(url = readPlainEnv("DATABASE_URL")): string {
  if (url && url.startsWith("file:")) {
    const p = url.slice("file:".length);
    return "file:" + path.resolve(p);
  }
  return "file:" + path.join(dataDir(), "workbench.db");
}

export function postgresUrl(url = readPlainEnv("DATABASE_URL")): string {
  if (!url || databaseKind(url) !== "postgres") {
    throw new Error("DATABASE_URL must be a postgresql:// URL for the PostgreSQL database");
  }
  return url;
}
