import { z } from "zod";
import { WorkbenchError } from "../../core/errors";
import { SOURCE_KINDS, type SourceDetails, type SourceKind, type TopicRowDto, type TopicSourceDto } from "../dto";
import { getDb } from "../client";

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
  const db = await getDb();
  const where = {
    projectId,
    ...(f.source ? { sources: { contains: f.source } } : {}),
    ...(f.status ? { status: f.status } : {}),
    ...(f.q ? { OR: [{ slug: { contains: f.q } }, { title: { contains: f.q } }] } : {}),
  };
  const filtered = Boolean(f.source || f.status || f.q);
  const [rows, byStatus, filteredTotal] = await Promise.all([
    db.topic.findMany({
      where,
      orderBy: [{ updatedAt: { sort: "desc", nulls: "last" } }, { slug: "asc" }],
      skip: (f.page - 1) * f.pageSize,
      take: f.pageSize,
      select: { slug: true, title: true, status: true, type: true, updatedAt: true, sources: true },
    }),
    // One GROUP BY over the (projectId, status) index gives the status filter's choices and,
    // unfiltered, the total: Prisma's `distinct` read every topic's row into the client to drop
    // duplicates there (11 ms at 5,000 topics, on every inventory view), and a count came on top.
    db.topic.groupBy({ by: ["status"], where: { projectId }, _count: { _all: true }, orderBy: { status: "asc" } }),
    filtered ? db.topic.count({ where }) : null,
  ]);
  const total = filteredTotal ?? byStatus.reduce((n, g) => n + g._count._all, 0);
  const statuses = byStatus.map((g) => g.status).filter((s): s is string => s !== null);
  return { rows: rows.map(toRow), total, statuses, page: f.page, pageSize: f.pageSize };
}

/** Every topic in inventory order (for the CLI's no-argument listing). */
export async function allTopics(projectId: string): Promise<TopicRowDto[]> {
  const db = await getDb();
  const rows = await db.topic.findMany({
    where: { projectId },
    orderBy: [{ updatedAt: { sort: "desc", nulls: "last" } }, { slug: "asc" }],
    select: { slug: true, title: true, status: true, type: true, updatedAt: true, sources: true },
  });
  return rows.map(toRow);
}

type SourceRow = {
  source: string;
  slug: string;
  title: string | null;
  status: string | null;
  type: string | null;
  phase: string | null;
  createdAt: string | null;
  updatedAt: string | null;
  relPath: string;
  fromManifest: boolean;
  onDisk: boolean;
  legacy: boolean;
  listed: boolean;
  detailsJson: string;
};

export function toSourceDto(r: SourceRow): TopicSourceDto {
  let details: SourceDetails;
  try {
    details = JSON.parse(r.detailsJson) as SourceDetails;
  } catch {
    throw new WorkbenchError("INTERNAL", "Stored topic details are unreadable; re-index the project.", { slug: r.slug });
  }
  const { detailsJson: _, ...rest } = r;
  return { ...rest, source: r.source as SourceKind, details };
}

export async function sourcesForSlug(projectId: string, slug: string): Promise<TopicSourceDto[]> {
  const db = await getDb();
  const rows = await db.topicSource.findMany({ where: { projectId, slug } });
  return rows.sort((a, b) => SOURCE_KINDS.indexOf(a.source as SourceKind) - SOURCE_KINDS.indexOf(b.source as SourceKind)).map(toSourceDto);
}
