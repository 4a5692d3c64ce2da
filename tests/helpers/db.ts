import { getDb } from "../../lib/db/client";
import type { IndexStats } from "../../lib/db/dto";
import { indexProject } from "../../lib/indexer/index-project";
import { addProject } from "../../lib/projects/add-project";

/** Registers a folder (idempotent) and indexes it. */
export async function indexFolder(root: string, opts: { full?: boolean } = {}): Promise<{ projectId: string; stats: IndexStats }> {
  const project = await addProject({ path: root });
  const stats = await indexProject(project.id, () => undefined, opts);
  return { projectId: project.id, stats };
}

/** Row counts of every per-project table. */
export async function rowCounts(projectId: string): Promise<Record<string, number>> {
  const db = await getDb();
  const where = { where: { projectId } };
  return {
    topics: await db.topic.count(where),
    topicSources: await db.topicSource.count(where),
    documents: await db.document.count(where),
    sourceFiles: await db.sourceFile.count(where),
    warnings: await db.indexWarning.count(where),
    branches: await db.gitBranch.count(where),
    commits: await db.gitCommit.count(where),
  };
}

/** Topic rows without database ids, in slug order. */
export async function topicTable(projectId: string): Promise<{ slug: string; title: string | null; status: string | null; type: string | null; updatedAt: string | null; sources: string }[]> {
  const db = await getDb();
  return db.topic.findMany({
    where: { projectId },
    orderBy: { slug: "asc" },
    select: { slug: true, title: true, status: true, type: true, updatedAt: true, sources: true },
  });
}

export async function warningRows(projectId: string): Promise<{ relPath: string; field: string | null; code: string; message: string }[]> {
  const db = await getDb();
  return db.indexWarning.findMany({
    where: { projectId },
    orderBy: [{ relPath: "asc" }, { message: "asc" }],
    select: { relPath: true, field: true, code: true, message: true },
  });
}

export async function topicSourceRows(projectId: string): Promise<{ source: string; slug: string; detailsJson: string; title: string | null; status: string | null; legacy: boolean; listed: boolean }[]> {
  const db = await getDb();
  return db.topicSource.findMany({
    where: { projectId },
    orderBy: [{ source: "asc" }, { slug: "asc" }],
    select: { source: true, slug: true, detailsJson: true, title: true, status: true, legacy: true, listed: true },
  });
}
