import type { ResolvedLayout } from "../../core/config";
import { WorkbenchError } from "../../core/errors";
import { getDb } from "../client";
import { isoTime } from "../db-values";
import type { ProjectDto, ProjectHeadDto } from "../dto";
import { readSql } from "../sql-tx";
import { toJobDto } from "./jobs";

type ProjectRow = {
  id: string;
  name: string;
  rootPath: string;
  createdAt: Date;
  lastIndexedAt: Date | null;
  configJson: string;
  remoteUrl: string | null;
  remoteBranch: string | null;
  lastFetchedAt: Date | null;
  lastFetchError: string | null;
};

function parseLayouts(json: string): ResolvedLayout[] {
  try {
    const v = JSON.parse(json) as unknown;
    return Array.isArray(v) ? (v as ResolvedLayout[]) : [];
  } catch {
    return [];
  }
}

async function toDto(p: ProjectRow): Promise<ProjectDto> {
  const db = await getDb();
  const [topicCount, warningCount, job] = await Promise.all([
    db.topic.count({ where: { projectId: p.id } }),
    db.indexWarning.count({ where: { projectId: p.id } }),
    db.indexJob.findFirst({ where: { projectId: p.id }, orderBy: { createdAt: "desc" } }),
  ]);
  return {
    id: p.id,
    name: p.name,
    rootPath: p.rootPath,
    createdAt: p.createdAt.toISOString(),
    lastIndexedAt: p.lastIndexedAt?.toISOString() ?? null,
    layouts: parseLayouts(p.configJson),
    topicCount,
    warningCount,
    latestJob: job ? toJobDto(job) : null,
    remote: p.remoteUrl ? { url: p.remoteUrl, branch: p.remoteBranch ?? "", lastFetchedAt: p.lastFetchedAt?.toISOString() ?? null, lastFetchError: p.lastFetchError } : null,
  };
}

/** Every project, or in team mode only `visibleIds`. */
export async function listProjects(visibleIds: string[] | null = null): Promise<ProjectDto[]> {
  const db = await getDb();
  const rows = await db.project.findMany({ where: visibleIds ? { id: { in: visibleIds } } : {}, orderBy: { name: "asc" } });
  return Promise.all(rows.map(toDto));
}

/**
 * Ids and names of every project, or in team mode only `visibleIds`, by name: the sidebar's
 * list, on every page, in one query (listProjects costs three more per project).
 */
export async function listProjectNames(visibleIds: string[] | null = null): Promise<{ id: string; name: string }[]> {
  // Plain SQL: the sidebar of every page asks (see lib/db/read-connection.ts for why not Prisma).
  if (visibleIds?.length === 0) return [];
  const where = visibleIds ? ` WHERE "id" IN (${visibleIds.map(() => "?").join(",")})` : "";
  return readSql<{ id: string; name: string }>(`SELECT "id", "name" FROM "Project"${where} ORDER BY "name" ASC`, visibleIds ?? []);
}

/** A project's name, root and layouts in one query, for pages and loaders that need no counts. */
export async function getProjectHead(id: string): Promise<ProjectHeadDto> {
  // Plain SQL: every project page asks (see lib/db/read-connection.ts for why not Prisma).
  const [row] = await readSql<{ id: string; name: string; rootPath: string; configJson: string; lastIndexedAt: unknown }>(`SELECT "id", "name", "rootPath", "configJson", "lastIndexedAt" FROM "Project" WHERE "id" = ?`, [
    id,
  ]);
  if (!row) throw new WorkbenchError("NOT_FOUND", "No such project.");
  return { id: row.id, name: row.name, rootPath: row.rootPath, layouts: parseLayouts(row.configJson), lastIndexedAt: isoTime(row.lastIndexedAt) };
}

export async function getProject(id: string): Promise<ProjectDto> {
  const db = await getDb();
  const row = await db.project.findUnique({ where: { id } });
  if (!row) throw new WorkbenchError("NOT_FOUND", "No such project.");
  return toDto(row);
}

export async function findProjectByRoot(rootPath: string): Promise<ProjectDto | null> {
  const db = await getDb();
  const row = await db.project.findUnique({ where: { rootPath } });
  return row ? toDto(row) : null;
}

/** Creates the project row, or returns the existing one for the same root. */
export async function upsertProject(rootPath: string, name: string): Promise<ProjectDto> {
  const db = await getDb();
  const row = await db.project.upsert({ where: { rootPath }, create: { rootPath, name }, update: {} });
  return toDto(row);
}

/** Creates the project row of a fresh checkout of a remote, or returns the one already there. */
export async function upsertRemoteProject(rootPath: string, name: string, remote: { url: string; branch: string }): Promise<ProjectDto> {
  const db = await getDb();
  const row = await db.project.upsert({
    where: { rootPath },
    create: { rootPath, name, remoteUrl: remote.url, remoteBranch: remote.branch, lastFetchedAt: new Date() },
    update: {},
  });
  return toDto(row);
}

/** Every project cloned from a remote, oldest fetch first (never-fetched ones lead). */
export async function listRemoteProjects(): Promise<{ id: string; name: string; rootPath: string; remoteUrl: string; remoteBranch: string }[]> {
  const db = await getDb();
  const rows = await db.project.findMany({
    where: { remoteUrl: { not: null } },
    orderBy: [{ lastFetchedAt: { sort: "asc", nulls: "first" } }, { name: "asc" }],
    select: { id: true, name: true, rootPath: true, remoteUrl: true, remoteBranch: true },
  });
  return rows.map((r) => ({ ...r, remoteUrl: r.remoteUrl ?? "", remoteBranch: r.remoteBranch ?? "" }));
}

/** Records a fetch attempt: its time, and its error or none. */
export async function recordFetch(id: string, error: string | null): Promise<void> {
  const db = await getDb();
  await db.project.updateMany({ where: { id }, data: { lastFetchedAt: new Date(), lastFetchError: error } });
}

/** Deletes the indexed data only (cascade); the repository on disk is never touched. */
export async function deleteProject(id: string): Promise<void> {
  const db = await getDb();
  const res = await db.project.deleteMany({ where: { id } });
  if (res.count === 0) throw new WorkbenchError("NOT_FOUND", "No such project.");
}

export async function getProjectIndexState(id: string): Promise<{ rootPath: string; gitFingerprint: string | null; listingDigest: string | null; configJson: string } | null> {
  const db = await getDb();
  return db.project.findUnique({ where: { id }, select: { rootPath: true, gitFingerprint: true, listingDigest: true, configJson: true } });
}

/** Every project's name by id (for labelling search facets). */
export async function projectNames(): Promise<Map<string, string>> {
  const db = await getDb();
  return new Map((await db.project.findMany({ select: { id: true, name: true } })).map((p) => [p.id, p.name]));
}
