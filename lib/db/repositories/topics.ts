/**
 * Topic reads that every load-context needs, kept free of zod (the inventory's page filter is
 * in ./topic-pages.ts): `workbench load-context` loads this module on its fast start.
 */
import { WorkbenchError } from "../../core/errors";
import { SOURCE_KINDS, type SourceDetails, type SourceKind, type TopicRowDto, type TopicSourceDto } from "../dto";
import { bool } from "../db-values";
import { readSql } from "../sql-tx";

export type TopicRow = { slug: string; title: string | null; status: string | null; type: string | null; updatedAt: string | null; sources: string };

export function toRow(t: TopicRow): TopicRowDto {
  return {
    slug: t.slug,
    title: t.title,
    status: t.status,
    type: t.type,
    updatedAt: t.updatedAt,
    sources: t.sources.split(",").filter(Boolean) as SourceKind[],
  };
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
