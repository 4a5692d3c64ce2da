import { prismaAdapter } from "better-auth/adapters/prisma";
import { getDb } from "./client";
import { databaseKind } from "./database-url";

/** The auth library's view of our database: the same Prisma client, the same engine. */
export async function authDatabaseAdapter(): Promise<ReturnType<typeof prismaAdapter>> {
  const db = await getDb();
  return prismaAdapter(db, { provider: databaseKind() === "postgres" ? "postgresql" : "sqlite" });
}
