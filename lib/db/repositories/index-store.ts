import type { ResolvedLayout } from "../../core/config";
import type { GitBranchInfo, GitCommitInfo } from "../../core/git";
import type { FileWarning } from "../../core/warnings";
import type { AreaFile } from "../../inventory/scan";
import { buildTopicRow } from "../../inventory/topics";
import type { SearchDocument, SourceKind, TopicSourceRecord } from "../../inventory/types";
import { getDb } from "../client";

/** Rows per createMany: well under SQLite's bound-parameter limit for our widest table. */
const BATCH = 400;

function chunks<T>(xs: T[], n = BATCH): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += n) out.push(xs.slice(i, i + n));
  return out;
}

export async function loadFingerprints(projectId: string): Promise<Map<string, { size: number; mtimeMs: number }>> {
  const db = await getDb();
  const rows = await db.sourceFile.findMany({ where: { projectId }, select: { relPath: true, size: true, mtimeMs: true } });
  return new Map(rows.map((r) => [r.relPath, { size: r.size, mtimeMs: r.mtimeMs }]));
}

export interface IndexWrite {
  projectId: string;
  layouts: ResolvedLayout[];
  /** Every file now in the index (replaces the fingerprints of those that changed). */
  changedFiles: AreaFile[];
  removedFiles: string[];
  /** Sources rescanned, and for each the slugs that exist now (others are deleted). */
  records: TopicSourceRecord[];
  rescanned: Map<SourceKind, Set<string> | "all">;
  present: Map<SourceKind, Set<string>>;
  documents: SearchDocument[];
  /** Documents to drop: removed or changed files, and whole areas when rebuilt. */
  documentPathsToDelete: string[];
  documentAreasToReplace: ("requirements" | "product")[];
  /** Path prefixes whose warnings are replaced ("" = all). */
  warningScopes: string[];
  warnings: FileWarning[];
  git: { fingerprint: string | null; branches: GitBranchInfo[]; commits: GitCommitInfo[] } | null;
}

/**
 * Writes one indexing result. Everything happens in one transaction so a failed
 * re-index leaves the previous data as it was.
 */
export async function writeIndex(w: IndexWrite, onProgress?: (phase: "saving", done: number, total: number) => void): Promise<{ topics: number }> {
  const db = await getDb();
  const { projectId } = w;
  const affectedSlugs = new Set<string>();

  await db.$transaction(
    async (tx) => {
      // File fingerprints.
      for (const c of chunks(w.removedFiles, 500)) await tx.sourceFile.deleteMany({ where: { projectId, relPath: { in: c } } });
      for (const c of chunks(w.changedFiles.map((f) => f.relPath), 500)) await tx.sourceFile.deleteMany({ where: { projectId, relPath: { in: c } } });
      for (const c of chunks(w.changedFiles)) {
        await tx.sourceFile.createMany({ data: c.map((f) => ({ projectId, relPath: f.relPath, size: f.size, mtimeMs: f.mtimeMs, area: f.area })) });
      }

      // Topic sources: delete rescanned slugs (and slugs that no longer exist), insert new records.
      for (const [source, scope] of w.rescanned) {
        const existing = await tx.topicSource.findMany({ where: { projectId, source }, select: { slug: true } });
        const present = w.present.get(source) ?? new Set<string>();
        const gone = existing.map((e) => e.slug).filter((s) => !present.has(s) || scope === "all" || scope.has(s));
        for (const s of gone) affectedSlugs.add(s);
        for (const c of chunks(gone, 500)) await tx.topicSource.deleteMany({ where: { projectId, source, slug: { in: c } } });
      }
      // A legacy brainstorm rescanned through the work folder.
      const written = new Set<string>();
      const records = w.records.filter((r) => {
        const k = `${r.source}\0${r.slug}`;
        if (written.has(k)) return false;
        written.add(k);
        return true;
      });
      for (const c of chunks(records.map((r) => r.source + "\0" + r.slug), 500)) {
        const pairs = c.map((k) => k.split("\0") as [string, string]);
        await tx.topicSource.deleteMany({ where: { projectId, OR: pairs.map(([source, slug]) => ({ source, slug })) } });
      }
      for (const c of chunks(records, 200)) {
        await tx.topicSource.createMany({
          data: c.map((r) => ({
            projectId,
            source: r.source,
            slug: r.slug,
            title: r.title,
            status: r.status,
            type: r.type,
            phase: r.phase,
            createdAt: r.createdAt,
            updatedAt: r.updatedAt,
            relPath: r.relPath,
            fromManifest: r.fromManifest,
            onDisk: r.onDisk,
            legacy: r.legacy,
            listed: r.listed,
            detailsJson: JSON.stringify(r.details),
          })),
        });
        for (const r of c) affectedSlugs.add(r.slug);
      }

      // Topics: recompute the inventory row of every slug touched.
      const slugs = [...affectedSlugs];
      for (const c of chunks(slugs, 500)) {
        const srcs = await tx.topicSource.findMany({
          where: { projectId, slug: { in: c } },
          select: { source: true, slug: true, title: true, status: true, type: true, updatedAt: true, listed: true },
        });
        const bySlug = new Map<string, typeof srcs>();
        for (const s of srcs) bySlug.set(s.slug, [...(bySlug.get(s.slug) ?? []), s]);
        await tx.topic.deleteMany({ where: { projectId, slug: { in: c } } });
        const rows = c
          .map((slug) => buildTopicRow(slug, (bySlug.get(slug) ?? []).map((s) => ({ ...s, source: s.source as SourceKind }))))
          .filter((r): r is NonNullable<typeof r> => r !== null);
        if (rows.length) {
          await tx.topic.createMany({
            data: rows.map((r) => ({ projectId, slug: r.slug, title: r.title, status: r.status, type: r.type, updatedAt: r.updatedAt, sources: r.sources.join(",") })),
          });
        }
      }

      // Search documents.
      for (const c of chunks(w.documentPathsToDelete, 500)) await tx.document.deleteMany({ where: { projectId, relPath: { in: c } } });
      if (w.documentAreasToReplace.length) await tx.document.deleteMany({ where: { projectId, area: { in: w.documentAreasToReplace } } });
      for (const c of chunks(w.documents.map((d) => d.relPath), 500)) await tx.document.deleteMany({ where: { projectId, relPath: { in: c } } });
      let done = 0;
      for (const c of chunks(w.documents, 200)) {
        await tx.document.createMany({
          data: c.map((d) => ({ projectId, relPath: d.relPath, area: d.area, source: d.source, slug: d.slug, title: d.title, content: d.content })),
        });
        done += c.length;
        onProgress?.("saving", done, w.documents.length);
      }

      // Warnings.
      if (w.warningScopes.includes("")) {
        await tx.indexWarning.deleteMany({ where: { projectId } });
      } else if (w.warningScopes.length) {
        for (const c of chunks(w.warningScopes, 200)) {
          await tx.indexWarning.deleteMany({ where: { projectId, OR: c.flatMap((p) => [{ relPath: p }, { relPath: { startsWith: p + "/" } }]) } });
        }
      }
      const uniqueWarnings = [...new Map(w.warnings.map((x) => [`${x.relPath}\0${x.field ?? ""}\0${x.message}`, x])).values()];
      for (const c of chunks(uniqueWarnings)) {
        await tx.indexWarning.createMany({ data: c.map((x) => ({ projectId, relPath: x.relPath, field: x.field ?? null, code: x.code, message: x.message })) });
      }

      // Git.
      if (w.git) {
        await tx.gitBranch.deleteMany({ where: { projectId } });
        await tx.gitCommit.deleteMany({ where: { projectId } });
        for (const c of chunks(w.git.branches)) {
          await tx.gitBranch.createMany({ data: c.map((b) => ({ projectId, name: b.name, lastCommitDate: b.lastCommitDate, recentJson: JSON.stringify(b.recent) })) });
        }
        const commits = w.git.commits;
        for (let i = 0; i < commits.length; i += BATCH) {
          await tx.gitCommit.createMany({
            data: commits.slice(i, i + BATCH).map((c, j) => ({ projectId, hash: c.hash, ord: i + j, subject: c.subject, message: c.message, date: c.date })),
          });
        }
      }

      await tx.project.update({
        where: { id: projectId },
        data: {
          lastIndexedAt: new Date(),
          configJson: JSON.stringify(w.layouts),
          ...(w.git ? { gitFingerprint: w.git.fingerprint } : {}),
        },
      });
    },
    { timeout: 300_000, maxWait: 30_000 },
  );
  const db2 = await getDb();
  return { topics: await db2.topic.count({ where: { projectId } }) };
}
