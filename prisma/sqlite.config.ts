import path from "node:path";
import { defineConfig } from "prisma/config";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { sqliteFileUrl } from "../lib/db/database-url";

// Paths here are relative to this file. The JS schema engine runs through the driver
// adapter, so no native engine is downloaded.
export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join(import.meta.dirname, "sqlite", "schema.prisma"),
  migrations: { path: path.join(import.meta.dirname, "sqlite", "migrations") },
  async adapter() {
    return new PrismaBetterSQLite3({ url: sqliteFileUrl() });
  },
});
