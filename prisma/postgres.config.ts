import path from "node:path";
import { defineConfig } from "prisma/config";
import { PrismaPg } from "@prisma/adapter-pg";

// Used only to generate the PostgreSQL client and to diff schemas into migration SQL;
// migrations are applied by lib/db/migrate.ts.
export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join(import.meta.dirname, "postgres", "schema.prisma"),
  migrations: { path: path.join(import.meta.dirname, "postgres", "migrations") },
  async adapter() {
    return new PrismaPg({ connectionString: process.env.DATABASE_URL || "postgresql://localhost:5432/workbench" });
  },
});
