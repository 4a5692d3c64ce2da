import { getDb } from "../client";

/** Everything the command palette can jump to, bounded per kind (newest first). */
export interface JumpTargets {
  projects: { id: string; name: string }[];
  topics: { projectId: string; slug: string; title: string | null; status: string | null }[];
  runs: { projectId: string; id: string; relPath: string; loopType: string; status: string | null }[];
  packets: { projectId: string; id: string; title: string; kind: string; reviewStatus: string }[];
  views: { projectId: string; id: string; name: string; surface: string; path: string }[];
}

/** Per kind, more than this would make the list slower than typing into search. */
export const MAX_TARGETS_PER_KIND = 500;

/** `visibleProjectIds`: team mode's restriction to the projects the person may see (null: all). */
export async function jumpTargets(visibleProjectIds: string[] | null = null): Promise<JumpTargets> {
  const db = await getDb();
  const take = MAX_TARGETS_PER_KIND;
  const inProject = visibleProjectIds ? { projectId: { in: visibleProjectIds } } : {};
  const [projects, topics, runs, packets, views] = await Promise.all([
    db.project.findMany({ where: visibleProjectIds ? { id: { in: visibleProjectIds } } : {}, select: { id: true, name: true }, orderBy: { name: "asc" } }),
    db.topic.findMany({ where: inProject, select: { projectId: true, slug: true, title: true, status: true }, orderBy: { updatedAt: { sort: "desc", nulls: "last" } }, take }),
    db.deepRun.findMany({ where: inProject, select: { projectId: true, id: true, relPath: true, loopType: true, status: true }, orderBy: { lastEventAt: { sort: "desc", nulls: "last" } }, take }),
    db.packet.findMany({ where: { archived: false, ...inProject }, select: { projectId: true, id: true, title: true, kind: true, reviewStatus: true }, orderBy: { updatedAt: "desc" }, take }),
    db.savedView.findMany({ where: inProject, select: { projectId: true, id: true, name: true, surface: true, query: true }, orderBy: { name: "asc" }, take }),
  ]);
  return { projects, topics, runs, packets, views: views.map(({ query, ...v }) => ({ ...v, path: query })) };
}
