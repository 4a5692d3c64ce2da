/**
 * The PostgreSQL schema is derived from the SQLite one so the two can never disagree
 * about models: only the datasource and the generated client's folder differ.
 */
export function postgresSchemaFrom(sqliteSchema: string): string {
  const header = "// GENERATED from prisma/sqlite/schema.prisma by `npm run db:sync-schemas`. Do not edit.\n";
  const body = sqliteSchema
    .replace(/^\/\/ Source of truth[^\n]*\n(\/\/[^\n]*\n)*/m, "")
    .replace('output     = "../../lib/db/generated/sqlite"', 'output     = "../../lib/db/generated/postgres"')
    .replace('provider = "sqlite"', 'provider = "postgresql"')
    .replace(/url\s+= "file:[^"]*"/, 'url      = env("DATABASE_URL")');
  return header + body;
}
