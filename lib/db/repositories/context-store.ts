import type { ResolvedLayout } from "../../core/config";
import { ProjectFs } from "../../core/project-fs";
import { containsPattern } from "../db-values";
import { readSql } from "../sql-tx";
import { SOURCE_KINDS, type BranchDto, type DocumentHitDto, type ProjectHeadDto, type SourceKind } from "../dto";
import { allTopics, SOURCE_COLUMNS, sourcesForSlug, toSourceDto, type SourceRow } from "./topics";
import { getProjectHead } from "./projects";

/**
 * Case-insensitive "contains" for any script. SQLite's LIKE folds ASCII only, so the
 * filter runs in SQL for the common case and the exact check runs here.
 */
function containsCI(haystack: string | null | undefined, needle: string): boolean {
  return !!haystack && haystack.toLocaleLowerCase().includes(needle.toLocaleLowerCase());
}

function caseVariants(s: string): string[] {
  return [...new Set([s, s.toLowerCase(), s.toUpperCase(), s.charAt(0).toUpperCase() + s.slice(1).toLowerCase()])];
}

/**
 * The index as load-context reads it: lib/inventory's ContextStore, which the inventory service
 * checks this against when it passes it on (the interface is the capability's, not the database's).
 */
export async function contextStoreFor(projectOrId: string | ProjectHeadDto) {
  const project = typeof projectOrId === "string" ? await getProjectHead(projectOrId) : projectOrId;
  const projectId = project.id;
  const layouts: ResolvedLayout[] = project.layouts;

  return {
    async layouts() {
      return layouts;
    },
    async knowledgeConfigured() {
      let pfs: ProjectFs | null = null;
      try {
        pfs = await ProjectFs.open(project.rootPath);
      } catch {
        return { requirements: false, product: false };
      }
      const exists = async (k: "requirements" | "product-knowledge") => {
        for (const l of layouts) {
          const a = l.artifacts[k];
          if (a.configured && a.relPath && (await pfs!.isDir(a.relPath))) return true;
        }
        return false;
      };
      return { requirements: await exists("requirements"), product: await exists("product-knowledge") };
    },
    sourcesForSlug: (slug: string) => sourcesForSlug(projectId, slug),
    async sourcesWithSlugLike(needle: string, limit: number) {
      const out = [];
      for (const source of SOURCE_KINDS) {
        const variants = caseVariants(needle);
        const rows = await readSql<SourceRow>(
          `SELECT ${SOURCE_COLUMNS} FROM "TopicSource" WHERE "projectId" = ? AND "source" = ? AND (${variants.map(() => `"slug" LIKE ? ESCAPE '\\'`).join(" OR ")}) ORDER BY "slug" ASC LIMIT ?`,
          [projectId, source, ...variants.map(containsPattern), limit * 4],
        );
        out.push(
          ...rows
            .filter((r) => containsCI(r.slug, needle))
            .slice(0, limit)
            .map(toSourceDto),
        );
      }
      return out;
    },
    async documentsContaining(needles: string[], area: DocumentHitDto["area"], limit: number) {
      const variants = [...new Set(needles.filter(Boolean).flatMap(caseVariants))];
      if (variants.length === 0) return [];
      const rows = await readSql<{ relPath: string; area: string; source: string | null; slug: string | null; title: string; content: string }>(
        `SELECT "relPath", "area", "source", "slug", "title", "content" FROM "Document" WHERE "projectId" = ? AND "area" = ? AND (${variants.map(() => `"content" LIKE ? ESCAPE '\\'`).join(" OR ")}) ORDER BY "relPath" ASC LIMIT ?`,
        [projectId, area, ...variants.map(containsPattern), limit],
      );
      return rows
        .filter((r) => needles.some((n) => containsCI(r.content, n) || containsCI(r.title, n)))
        .map((r): DocumentHitDto => ({ relPath: r.relPath, area: r.area as DocumentHitDto["area"], source: r.source as SourceKind | null, slug: r.slug, title: r.title, content: r.content }));
    },
    async branchesContaining(needle: string) {
      const rows = await readSql<{ name: string; lastCommitDate: string; recentJson: string }>(
        `SELECT "name", "lastCommitDate", "recentJson" FROM "GitBranch" WHERE "projectId" = ? AND "name" LIKE ? ESCAPE '\\' ORDER BY "name" ASC`,
        [projectId, containsPattern(needle)],
      );
      return rows.filter((b) => b.name.includes(needle)).map((b): BranchDto => ({ name: b.name, lastCommitDate: b.lastCommitDate, recent: JSON.parse(b.recentJson) as BranchDto["recent"] }));
    },
    async commitsGrep(needle: string, limit: number) {
      // Case-sensitive, as `git log --grep` is by default.
      const rows = await readSql<{ hash: string; subject: string; message: string; date: string }>(
        `SELECT "hash", "subject", "message", "date" FROM "GitCommit" WHERE "projectId" = ? AND "message" LIKE ? ESCAPE '\\' ORDER BY "ord" ASC LIMIT ?`,
        [projectId, containsPattern(needle), limit * 4],
      );
      return rows
        .filter((c) => c.message.includes(needle))
        .slice(0, limit)
        .map((c) => ({ hash: c.hash, shortHash: c.hash.slice(0, 7), subject: c.subject, date: c.date }));
    },
    topics: () => allTopics(projectId),
  };
}
