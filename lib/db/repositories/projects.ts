import type { ResolvedLayout } from "../../core/config";
import { WorkbenchError } from "../../core/errors";
import { getDb } from "../client";
import type { ProjectDto } from "../dto";
import { toJobDto } from "./jobs";

type ProjectRow = {
  id: string;
  name: string;
  rootPath: string;
  createdAt: Date;
  lastIndexedAt: Date | null;
  configJson: string;
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
  };
}

export async function listProjects(): Promise<ProjectDto[]> {
  const db = await getDb();
  const rows = await db.project.findMany({ orderBy: { name: "asc" } });
  return Promise.all(rows.map(toDto));
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

/** Deletes the indexed data only (cascade); the repository on disk is never touched. */
export async function deleteProject(id: string): Promise<void> {
  const db = await getDb();
  const res = await db.project.deleteMany({ where: { id } });
  if (res.count === 0) throw new WorkbenchError("NOT_FOUND", "No such project.");
}

export async function getProjectIndexState(id: string): Promise<{ rootPath: string; gitFingerprint: string | null } | null> {
  const db = await getDb();
  return db.project.findUnique({ where: { id }, select: { rootPath: true, gitFingerprint: true } });
}

/** Every project's name by id (for labelling search facets). */
export async function projectNames(): Promise<Map<string, string>> {
  const db = await getDb();
  return new Map((await db.project.findMany({ select: { id: true, name: true } })).map((p) => [p.id, p.name]));
}
