import type { ResolvedLayout } from "../../core/config";
import { WorkbenchError } from "../../core/errors";
import { getDb } from "../client";
import { count, isoTime } from "../db-values";
import type { ProjectDto, ProjectHeadDto } from "../dto";
import { readSql } from "../sql-tx";
import { JOB_COLUMNS, toJobDto, type JobRow } from "./jobs";

type ProjectRow = {
  id: string;
  name: string;
  rootPath: string;
  createdAt: unknown;
  lastIndexedAt: unknown;
  configJson: string;
  remoteUrl: string | null;
  remoteBranch: string | null;
  lastFetchedAt: unknown;
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

const PROJECT_COLUMNS = `"id", "name", "rootPath", "createdAt", "lastIndexedAt", "configJson", "remoteUrl", "remoteBranch", "lastFetchedAt", "lastFetchError"`;

/**
 * Plain SQL (lib/db/read-connection.ts says why): the CLI's load-context on an unchanged
 * project reads a project this way, and then never loads the Prisma client at all.
 */
async function projectRows(where: string, params: unknown[]): Promise<ProjectRow[]> {
  return readSql<ProjectRow>(`SELECT ${PROJECT_COLUMNS} FROM "Project"${where}`, params);
}

async function toDto(p: ProjectRow): Promise<ProjectDto> {
  const [[counts], [job]] = await Promise.all([
    readSql<{ topics: unknown; warnings: unknown }>(`SELECT (SELECT COUNT(*) FROM "Topic" WHERE "projectId" = ?) AS "topics", (SELECT COUNT(*) FROM "IndexWarning" WHERE "projectId" = ?) AS "warnings"`, [p.id, p.id]),
    readSql<JobRow>(`SELECT ${JOB_COLUMNS} FROM "IndexJob" WHERE "projectId" = ? ORDER BY "createdAt" DESC LIMIT 1`, [p.id]),
  ]);
  return {
    id: p.id,
    name: p.name,
    rootPath: p.rootPath,
    createdAt: isoTime(p.createdAt) ?? "",
    lastIndexedAt: isoTime(p.lastIndexedAt),
    layouts: parseLayouts(p.configJson),
    topicCount: count(counts?.topics),
    warningCount: count(counts?.warnings),
    latestJob: job ? toJobDto(job) : null,
    remote: p.remoteUrl ? { url: p.remoteUrl, branch: p.remoteBranch ?? "", lastFetchedAt: isoTime(p.lastFetchedAt), lastFetchError: p.lastFetchError } : null,
  };
}

/** Every project, or in team mode only `visibleIds`. */
export async function listProjects(visibleIds: string[] | null = null): Promise<ProjectDto[]> {
  if (visibleIds?.length === 0) return [];
  const where = visibleIds ? ` WHERE "id" IN (${visibleIds.map(() => "?").join(",")})` : "";
  return Promise.all((await projectRows(`${where} ORDER BY "name" ASC`, visibleIds ?? [])).map(toDto));
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
  const [row] = await projectRows(` WHERE "id" = ?`, [id]);
  if (!row) throw new WorkbenchError("NOT_FOUND", "No such project.");
  return toDto(row);
}

export async function findProjectByRoot(rootPath: string): Promise<ProjectDto | null> {
  const [row] = await projectRows(` WHERE "rootPath" = ?`, [rootPath]);
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
  const [row] = await readSql<{ rootPath: string; gitFingerprint: string | null; listingDigest: string | null; configJson: string }>(
    `SELECT "rootPath", "gitFingerprint", "listingDigest", "configJson" FROM "Project" WHERE "id" = ?`,
    [id],
  );
  return row ?? null;
}

/** Every project's name by id (for labelling search facets). */
export async function projectNames(): Promise<Map<string, string>> {
  const db = await getDb();
  return new Map((await db.project.findMany({ select: { id: true, name: true } })).map((p) => [p.id, p.name]));
}
