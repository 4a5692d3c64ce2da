import { z } from "zod";
import { WorkbenchError } from "../../core/errors";
import { SOURCE_KINDS, type SourceDetails, type SourceKind, type TopicRowDto, type TopicSourceDto } from "../dto";
import { bool, containsPattern, count } from "../db-values";
import { databaseKind } from "../database-url";
import { readSql } from "../sql-tx";

export const topicFilterSchema = z.object({
  source: z.enum(SOURCE_KINDS).optional().describe("only topics that this source has"),
  status: z.string().max(64).optional().describe("only topics with this status"),
  q: z.string().max(200).optional().describe("slug or title contains this text (case-insensitive)"),
  page: z.coerce.number().int().min(1).max(100_000).default(1).describe("1-based page number"),
  pageSize: z.coerce.number().int().min(1).max(500).default(100).describe("rows per page"),
});
export type TopicFilter = z.input<typeof topicFilterSchema>;

type TopicRow = { slug: string; title: string | null; status: string | null; type: string | null; updatedAt: string | null; sources: string };

function toRow(t: TopicRow): TopicRowDto {
  return {
    slug: t.slug,
    title: t.title,
    status: t.status,
    type: t.type,
    updatedAt: t.updatedAt,
    sources: t.sources.split(",").filter(Boolean) as SourceKind[],
  };
}

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

/** Every topic in inventory order (for the CLI's no-argument listing). */
export async function allTopics(projectId: string): Promise<TopicRowDto[]> {
  const rows = await readSql<TopicRow>(`SELECT "slug", "title", "status", "type", "updatedAt", "sources" FROM "Topic" WHERE "projectId" = ? ORDER BY "updatedAt" DESC NULLS LAST, "slug" ASC`, [projectId]);
  return rows.map(toRow);
}

/** A TopicSource row as plain SQL returns it (booleans: 0/1 on SQLite). */
export type SourceRow = {
  source: string;
  slug: string;
  title: string | null;
  status: string | null;
  type: string | null;
  phase: string | null;
  createdAt: string | null;
  updatedAt: string | null;
  relPath: string;
  fromManifest: unknown;
  onDisk: unknown;
  legacy: unknown;
  listed: unknown;
  detailsJson: string;
};

export const SOURCE_COLUMNS = `"source", "slug", "title", "status", "type", "phase", "createdAt", "updatedAt", "relPath", "fromManifest", "onDisk", "legacy", "listed", "detailsJson"`;

export function toSourceDto(r: SourceRow): TopicSourceDto {
  let details: SourceDetails;
  try {
    details = JSON.parse(r.detailsJson) as SourceDetails;
  } catch {
    throw new WorkbenchError("INTERNAL", "Stored topic details are unreadable; re-index the project.", { slug: r.slug });
  }
  return {
    source: r.source as SourceKind,
    slug: r.slug,
    title: r.title,
    status: r.status,
    type: r.type,
    phase: r.phase,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    relPath: r.relPath,
    fromManifest: bool(r.fromManifest),
    onDisk: bool(r.onDisk),
    legacy: bool(r.legacy),
    listed: bool(r.listed),
    details,
  };
}

export async function sourcesForSlug(projectId: string, slug: string): Promise<TopicSourceDto[]> {
  const rows = await readSql<SourceRow>(`SELECT ${SOURCE_COLUMNS} FROM "TopicSource" WHERE "projectId" = ? AND "slug" = ?`, [projectId, slug]);
  return rows.sort((a, b) => SOURCE_KINDS.indexOf(a.source as SourceKind) - SOURCE_KINDS.indexOf(b.source as SourceKind)).map(toSourceDto);
}
