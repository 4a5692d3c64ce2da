/** The inventory's page of topics: its filter (a zod schema, also the API's query) and the paged read. */
import { z } from "zod";
import { SOURCE_KINDS, type TopicRowDto } from "../dto";
import { containsPattern, count } from "../db-values";
import { databaseKind } from "../database-url";
import { readSql } from "../sql-tx";
import { toRow, type TopicRow } from "./topics";

export const topicFilterSchema = z.object({
  source: z.enum(SOURCE_KINDS).optional().describe("only topics that this source has"),
  status: z.string().max(64).optional().describe("only topics with this status"),
  q: z.string().max(200).optional().describe("slug or title contains this text (case-insensitive)"),
  page: z.coerce.number().int().min(1).max(100_000).default(1).describe("1-based page number"),
  pageSize: z.coerce.number().int().min(1).max(500).default(100).describe("rows per page"),
});
export type TopicFilter = z.input<typeof topicFilterSchema>;

/** One page of the inventory, most recently updated first. */
export async function listTopics(projectId: string, filter: TopicFilter): Promise<{ rows: TopicRowDto[]; total: number; statuses: string[]; page: number; pageSize: number }> {
  const f = topicFilterSchema.parse(filter);
  // Plain SQL: the inventory is a page under load (see lib/db/read-connection.ts for why not Prisma).
  const like = databaseKind() === "postgres" ? "ILIKE" : "LIKE";
  const conds = [`"projectId" = ?`];
  const params: unknown[] = [projectId];
  if (f.source) {
    conds.push(`"sources" LIKE ? ESCAPE '\\'`);
    params.push(containsPattern(f.source));
  }
  if (f.status) {
    conds.push(`"status" = ?`);
    params.push(f.status);
  }
  if (f.q) {
    conds.push(`("slug" ${like} ? ESCAPE '\\' OR "title" ${like} ? ESCAPE '\\')`);
    params.push(containsPattern(f.q), containsPattern(f.q));
  }
  const where = conds.join(" AND ");
  const filtered = conds.length > 1;
  const [rows, byStatus, filteredTotal] = await Promise.all([
    readSql<TopicRow>(`SELECT "slug", "title", "status", "type", "updatedAt", "sources" FROM "Topic" WHERE ${where} ORDER BY "updatedAt" DESC NULLS LAST, "slug" ASC LIMIT ? OFFSET ?`, [
      ...params,
      f.pageSize,
      (f.page - 1) * f.pageSize,
    ]),
    // One GROUP BY over the (projectId, status) index gives the status filter's choices and,
    // unfiltered, the total.
    readSql<{ status: string | null; n: number | string }>(`SELECT "status", COUNT(*) AS "n" FROM "Topic" WHERE "projectId" = ? GROUP BY "status" ORDER BY "status" ASC`, [projectId]),
    filtered ? readSql<{ n: number | string }>(`SELECT COUNT(*) AS "n" FROM "Topic" WHERE ${where}`, params) : null,
  ]);
  const total = filteredTotal ? count(filteredTotal[0]?.n) : byStatus.reduce((n, g) => n + count(g.n), 0);
  const statuses = byStatus.map((g) => g.status).filter((s): s is string => s !== null);
  return { rows: rows.map(toRow), total, statuses, page: f.page, pageSize: f.pageSize };
}
