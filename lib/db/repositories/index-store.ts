import { randomUUID } from "node:crypto";
import type { ResolvedLayout } from "../../core/config";
import type { GitBranchInfo, GitCommitInfo } from "../../core/git";
import type { FileWarning } from "../../core/warnings";
import type { IndexChanges, SearchDocument, SourceKind, TopicRowDto, TopicSourceRecord } from "../dto";
import { readSql, withSqlTransaction, type SqlTx } from "../sql-tx";

/** Values per IN (...) list. */
const IN_LIST = 500;

function chunks<T>(xs: T[], n: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += n) out.push(xs.slice(i, i + n));
  return out;
}

const marks = (n: number) => Array.from({ length: n }, () => "?").join(",");

export async function loadFingerprints(projectId: string): Promise<Map<string, { size: number; mtimeMs: number }>> {
  const rows = await readSql<{ relPath: string; size: number | string; mtimeMs: number | string }>(`SELECT "relPath", "size", "mtimeMs" FROM "SourceFile" WHERE "projectId" = ?`, [projectId]);
  // PostgreSQL returns BIGINT columns as strings.
  return new Map(rows.map((r) => [r.relPath, { size: Number(r.size), mtimeMs: Number(r.mtimeMs) }]));
}

/** What a topic's inventory row is built from: the stored fields of each of its sources. */
export type TopicSourceSummary = Pick<TopicSourceRecord, "source" | "slug" | "title" | "status" | "type" | "updatedAt" | "listed">;

export interface IndexWrite {
  projectId: string;
  layouts: ResolvedLayout[];
  /** Files that are new or changed since the last index (their fingerprints are replaced). */
  changedFiles: { relPath: string; size: number; mtimeMs: number; area: string }[];
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
  /** Warning codes replaced wherever they are (the file layer's listing refusals, raised on every walk). */
  warningCodesReplaced?: readonly string[];
  /** Entries (`source\0slug`) that failed to index this run: their stored rows are kept. */
  keepEntries?: ReadonlySet<string>;
  warnings: FileWarning[];
  git: { fingerprint: string | null; branches: GitBranchInfo[]; commits: GitCommitInfo[] } | null;
  /** Digest of the walked file list, or null when the stored fingerprints will not match it. */
  listingDigest: string | null;
  /** The inventory's rule for a topic's row (lib/inventory/topics.ts buildTopicRow); null when no source lists it. */
  topicRow: (slug: string, sources: TopicSourceSummary[]) => TopicRowDto | null;
}

async function deleteIn(tx: SqlTx, table: string, column: string, values: string[], where: string, params: unknown[]): Promise<void> {
  for (const c of chunks(values, IN_LIST)) {
    await tx.run(`DELETE FROM "${table}" WHERE ${where} AND "${column}" IN (${marks(c.length)})`, [...params, ...c]);
  }
}

/**
 * Writes one indexing result in one transaction, so a failed re-index leaves the
 * previous data as it was. A project's first index skips every delete.
 */
export async function writeIndex(w: IndexWrite, onProgress?: (phase: "saving", done: number, total: number) => void): Promise<{ topics: number; changes: IndexChanges }> {
  const pid = w.projectId;
  const now = new Date().toISOString();
  return withSqlTransaction(async (tx) => {
    const hasData = (await tx.all<{ n: number }>(`SELECT COUNT(*) AS n FROM (SELECT 1 FROM "SourceFile" WHERE "projectId" = ? LIMIT 1) t`, [pid]))[0]!.n > 0;
    const affected = new Set<string>();

    // File fingerprints.
    if (hasData) {
      await deleteIn(tx, "SourceFile", "relPath", [...w.removedFiles, ...w.changedFiles.map((f) => f.relPath)], `"projectId" = ?`, [pid]);
    }
    await tx.insert("SourceFile", ["id", "projectId", "relPath", "size", "mtimeMs", "area"], w.changedFiles, (f) => [randomUUID(), pid, f.relPath, f.size, f.mtimeMs, f.area]);

    // Topic sources: slugs rescanned or gone are replaced by the new records.
    if (hasData) {
      for (const [source, scope] of w.rescanned) {
        const existing = await tx.all<{ slug: string }>(`SELECT "slug" FROM "TopicSource" WHERE "projectId" = ? AND "source" = ?`, [pid, source]);
        const present = w.present.get(source) ?? new Set<string>();
        const gone = existing.map((e) => e.slug).filter((s) => !w.keepEntries?.has(`${source}\0${s}`) && (!present.has(s) || scope === "all" || scope.has(s)));
        for (const s of gone) affected.add(s);
        await deleteIn(tx, "TopicSource", "slug", gone, `"projectId" = ? AND "source" = ?`, [pid, source]);
      }
    }
    const unique = new Map<string, TopicSourceRecord>();
    for (const r of w.records) if (!unique.has(`${r.source}\0${r.slug}`)) unique.set(`${r.source}\0${r.slug}`, r);
    const records = [...unique.values()];
    if (hasData) {
      for (const source of new Set(records.map((r) => r.source))) {
        await deleteIn(
          tx,
          "TopicSource",
          "slug",
          records.filter((r) => r.source === source).map((r) => r.slug),
          `"projectId" = ? AND "source" = ?`,
          [pid, source],
        );
      }
    }
    await tx.insert(
      "TopicSource",
      ["id", "projectId", "source", "slug", "title", "status", "type", "phase", "createdAt", "updatedAt", "relPath", "fromManifest", "onDisk", "legacy", "listed", "detailsJson"],
      records,
      (r) => [randomUUID(), pid, r.source, r.slug, r.title, r.status, r.type, r.phase, r.createdAt, r.updatedAt, r.relPath, r.fromManifest, r.onDisk, r.legacy, r.listed, JSON.stringify(r.details)],
    );
    for (const r of records) affected.add(r.slug);

    // Topics: the inventory row of every slug touched, rebuilt from its sources.
    for (const c of chunks([...affected], IN_LIST)) {
      const srcs = await tx.all<{ source: string; slug: string; title: string | null; status: string | null; type: string | null; updatedAt: string | null; listed: boolean | number }>(
        `SELECT "source", "slug", "title", "status", "type", "updatedAt", "listed" FROM "TopicSource" WHERE "projectId" = ? AND "slug" IN (${marks(c.length)})`,
        [pid, ...c],
      );
      const bySlug = new Map<string, typeof srcs>();
      for (const s of srcs) bySlug.set(s.slug, [...(bySlug.get(s.slug) ?? []), s]);
      if (hasData) await deleteIn(tx, "Topic", "slug", c, `"projectId" = ?`, [pid]);
      const rows = c
        .map((slug) =>
          w.topicRow(
            slug,
            (bySlug.get(slug) ?? []).map((s) => ({ ...s, source: s.source as SourceKind, listed: Boolean(s.listed) })),
          ),
        )
        .filter((r): r is NonNullable<typeof r> => r !== null);
      await tx.insert("Topic", ["id", "projectId", "slug", "title", "status", "type", "updatedAt", "sources"], rows, (r) => [randomUUID(), pid, r.slug, r.title, r.status, r.type, r.updatedAt, r.sources.join(",")]);
    }

    // Search documents.
    if (hasData) {
      await deleteIn(tx, "Document", "relPath", [...w.documentPathsToDelete, ...w.documents.map((d) => d.relPath)], `"projectId" = ?`, [pid]);
      await deleteIn(tx, "Document", "area", w.documentAreasToReplace, `"projectId" = ?`, [pid]);
    }
    const docColumns = ["id", "projectId", "relPath", "area", "source", "slug", "title", "content"];
    let done = 0;
    for (const c of chunks(w.documents, 2000)) {
      await tx.insert("Document", docColumns, c, (d) => [randomUUID(), pid, d.relPath, d.area, d.source, d.slug, d.title, d.content]);
      done += c.length;
      onProgress?.("saving", done, w.documents.length);
    }

    // Warnings.
    if (hasData) {
      if (w.warningScopes.includes("")) await tx.run(`DELETE FROM "IndexWarning" WHERE "projectId" = ?`, [pid]);
      else {
        for (const c of chunks(w.warningScopes, 100)) {
          const cond = c.map(() => `("relPath" = ? OR "relPath" LIKE ? ESCAPE '\\')`).join(" OR ");
          const like = (p: string) => p.replace(/[\\%_]/g, (m) => `\\${m}`) + "/%";
          await tx.run(`DELETE FROM "IndexWarning" WHERE "projectId" = ? AND (${cond})`, [pid, ...c.flatMap((p) => [p, like(p)])]);
        }
        const codes = w.warningCodesReplaced ?? [];
        if (codes.length) await tx.run(`DELETE FROM "IndexWarning" WHERE "projectId" = ? AND "code" IN (${marks(codes.length)})`, [pid, ...codes]);
      }
    }
    const warnings = [...new Map(w.warnings.map((x) => [`${x.relPath}\0${x.field ?? ""}\0${x.message}`, x])).values()];
    await tx.insert("IndexWarning", ["id", "projectId", "relPath", "field", "code", "message", "createdAt"], warnings, (x) => [randomUUID(), pid, x.relPath, x.field ?? null, x.code, x.message, now]);

    // Git.
    if (w.git) {
      if (hasData) {
        await tx.run(`DELETE FROM "GitBranch" WHERE "projectId" = ?`, [pid]);
        await tx.run(`DELETE FROM "GitCommit" WHERE "projectId" = ?`, [pid]);
      }
      await tx.insert("GitBranch", ["id", "projectId", "name", "lastCommitDate", "recentJson"], w.git.branches, (b) => [randomUUID(), pid, b.name, b.lastCommitDate, JSON.stringify(b.recent)]);
      await tx.insert("GitCommit", ["id", "projectId", "hash", "ord", "subject", "message", "date"], w.git.commits.entries(), ([i, c]) => [randomUUID(), pid, c.hash, i, c.subject, c.message, c.date]);
    }

    await tx.run(`UPDATE "Project" SET "lastIndexedAt" = ?, "updatedAt" = ?, "configJson" = ?, "listingDigest" = ?${w.git ? `, "gitFingerprint" = ?` : ""} WHERE "id" = ?`, [
      tx.kind === "postgres" ? new Date(now) : now.replace("Z", "+00:00"),
      tx.kind === "postgres" ? new Date(now) : now.replace("Z", "+00:00"),
      JSON.stringify(w.layouts),
      w.listingDigest,
      ...(w.git ? [w.git.fingerprint] : []),
      pid,
    ]);
    const n = await tx.all<{ n: number | string }>(`SELECT COUNT(*) AS n FROM "Topic" WHERE "projectId" = ?`, [pid]);
    const changes: IndexChanges = {
      topicSlugs: [...affected],
      documentPaths: [...new Set([...w.documentPathsToDelete, ...w.documents.map((d) => d.relPath)])],
      documentAreas: [...w.documentAreasToReplace],
      commits: w.git !== null,
    };
    return { topics: Number(n[0]!.n), changes };
  });
}
