import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { postgresSchemaFrom } from "../../../lib/db/schema-sync";
import { REPO_ROOT } from "../../helpers/project-builder";

const read = (rel: string) => fs.readFileSync(path.join(REPO_ROOT, rel), "utf8");
const migrationNames = (kind: string) =>
  fs
    .readdirSync(path.join(REPO_ROOT, "prisma", kind, "migrations"), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();

describe("schema drift", () => {
  it("prisma/postgres/schema.prisma is exactly what db:sync-schemas derives from the SQLite schema", () => {
    expect(read("prisma/postgres/schema.prisma")).toBe(postgresSchemaFrom(read("prisma/sqlite/schema.prisma")));
  });

  it("the derived schema differs only in datasource and generated-client folder", () => {
    const pg = postgresSchemaFrom(read("prisma/sqlite/schema.prisma"));
    expect(pg).toContain('provider = "postgresql"');
    expect(pg).toContain('url      = env("DATABASE_URL")');
    expect(pg).toContain('output     = "../../lib/db/generated/postgres"');
    expect(pg).not.toContain('provider = "sqlite"');
    expect(pg).not.toContain("generated/sqlite");
    const models = (s: string) => s.match(/^model \w+/gm) ?? [];
    expect(models(pg)).toEqual(models(read("prisma/sqlite/schema.prisma")));
    expect(models(pg).length).toBeGreaterThan(0);
  });

  it("both migration folders hold the same migrations, each with a migration.sql", () => {
    const sqlite = migrationNames("sqlite");
    expect(sqlite.length).toBeGreaterThan(0);
    expect(migrationNames("postgres")).toEqual(sqlite);
    for (const kind of ["sqlite", "postgres"]) {
      for (const name of sqlite) expect(fs.existsSync(path.join(REPO_ROOT, "prisma", kind, "migrations", name, "migration.sql"))).toBe(true);
    }
  });
});
