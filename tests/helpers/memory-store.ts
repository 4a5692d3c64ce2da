import type { ResolvedLayout } from "../../lib/core/config";
import type { GitCommitInfo } from "../../lib/core/git";
import { ProjectFs } from "../../lib/core/project-fs";
import type { FileWarning } from "../../lib/core/warnings";
import type { BranchDto, CommitDto, DocumentHitDto, TopicRowDto, TopicSourceDto } from "../../lib/db/dto";
import type { ContextStore } from "../../lib/inventory/context-store";
import { buildDocuments, listFiles, planScan, scanSources, type ScanPlan } from "../../lib/inventory/scan";
import { buildTopicRow, compareTopics } from "../../lib/inventory/topics";
import { SOURCE_KINDS, type SearchDocument, type TopicSourceRecord } from "../../lib/inventory/types";

export interface MemoryStoreData {
  layouts: ResolvedLayout[];
  knowledge: { requirements: boolean; product: boolean };
  records: TopicSourceDto[];
  documents: DocumentHitDto[];
  branches: BranchDto[];
  /** `git log --all` order, newest first. */
  commits: GitCommitInfo[];
}

const lc = (s: string) => s.toLocaleLowerCase();

/**
 * An in-memory ContextStore with the database store's semantics: exact slug lookup,
 * case-insensitive "contains" for slugs, documents and commit messages, case-sensitive
 * branch names (git branch --list), results ordered as the SQL orders them.
 * Every call is recorded so tests can tell which phases ran.
 */
export class MemoryStore implements ContextStore {
  readonly calls: { method: string; args: unknown[] }[] = [];

  constructor(readonly data: MemoryStoreData) {}

  called(method: string): boolean {
    return this.calls.some((c) => c.method === method);
  }

  private log(method: string, args: unknown[]): void {
    this.calls.push({ method, args });
  }

  async layouts(): Promise<ResolvedLayout[]> {
    this.log("layouts", []);
    return this.data.layouts;
  }

  async knowledgeConfigured(): Promise<{ requirements: boolean; product: boolean }> {
    this.log("knowledgeConfigured", []);
    return this.data.knowledge;
  }

  async sourcesForSlug(slug: string): Promise<TopicSourceDto[]> {
    this.log("sourcesForSlug", [slug]);
    return this.data.records
      .filter((r) => r.slug === slug)
      .sort((a, b) => SOURCE_KINDS.indexOf(a.source) - SOURCE_KINDS.indexOf(b.source))
      .map(clone);
  }

  async sourcesWithSlugLike(needle: string, limit: number): Promise<TopicSourceDto[]> {
    this.log("sourcesWithSlugLike", [needle, limit]);
    return SOURCE_KINDS.flatMap((source) =>
      this.data.records
        .filter((r) => r.source === source && lc(r.slug).includes(lc(needle)))
        .sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0))
        .slice(0, limit)
        .map(clone),
    );
  }

  async documentsContaining(needles: string[], area: DocumentHitDto["area"], limit: number): Promise<DocumentHitDto[]> {
    this.log("documentsContaining", [needles, area, limit]);
    const ns = needles.filter(Boolean).map(lc);
    if (ns.length === 0) return [];
    return this.data.documents
      .filter((d) => d.area === area && ns.some((n) => lc(d.content).includes(n)))
      .sort((a, b) => (a.relPath < b.relPath ? -1 : a.relPath > b.relPath ? 1 : 0))
      .slice(0, limit)
      .map((d) => ({ ...d }));
  }

  async branchesContaining(needle: string): Promise<BranchDto[]> {
    this.log("branchesContaining", [needle]);
    return this.data.branches
      .filter((b) => b.name.includes(needle))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      .map((b) => ({ ...b, recent: b.recent.map((r) => ({ ...r })) }));
  }

  async commitsGrep(needle: string, limit: number): Promise<CommitDto[]> {
    this.log("commitsGrep", [needle, limit]);
    return this.data.commits
      .filter((c) => lc(c.message).includes(lc(needle)))
      .slice(0, limit)
      .map((c) => ({ hash: c.hash, shortHash: c.hash.slice(0, 7), subject: c.subject, date: c.date }));
  }

  async topics(): Promise<TopicRowDto[]> {
    this.log("topics", []);
    const slugs = [...new Set(this.data.records.map((r) => r.slug))];
    return slugs
      .map((s) =>
        buildTopicRow(
          s,
          this.data.records.filter((r) => r.slug === s),
        ),
      )
      .filter((r): r is TopicRowDto => r !== null)
      .sort(compareTopics);
  }
}

/** Records survive a JSON round trip in the database; the fake does the same. */
function clone<T>(x: T): T {
  return JSON.parse(JSON.stringify(x)) as T;
}

export interface ProjectScan {
  pfs: ProjectFs;
  plan: ScanPlan;
  records: TopicSourceRecord[];
  documents: SearchDocument[];
  warnings: FileWarning[];
}

/** Everything a full index would read from a project folder, without a database. */
export async function scanProject(root: string): Promise<ProjectScan> {
  const pfs = await ProjectFs.open(root);
  const warnings: FileWarning[] = [];
  const ctx = { pfs, warn: (w: FileWarning) => warnings.push(w) };
  const plan = await planScan(pfs, ctx.warn);
  const { records } = await scanSources(ctx, plan);
  const files = await listFiles(pfs, plan);
  const documents = await buildDocuments(ctx, plan, files);
  return { pfs, plan, records, documents, warnings };
}

/** A MemoryStore over a scanned project folder; git data is supplied by the test. */
export async function memoryStoreFor(root: string, git: { branches?: BranchDto[]; commits?: GitCommitInfo[] } = {}): Promise<{ store: MemoryStore; scan: ProjectScan }> {
  const scan = await scanProject(root);
  const store = new MemoryStore({
    layouts: scan.plan.layouts,
    knowledge: { requirements: scan.plan.requirementsDirs.length > 0, product: scan.plan.productDirs.length > 0 },
    records: scan.records.map(clone),
    documents: scan.documents.map((d) => ({ relPath: d.relPath, area: d.area, source: d.source, slug: d.slug, title: d.title, content: d.content })),
    branches: git.branches ?? [],
    commits: git.commits ?? [],
  });
  return { store, scan };
}

/**
 * The sample project's git history as scripts/sample-project.mjs builds it, with
 * placeholder hashes (unit tests run without git).
 */
export function sampleGit(): { branches: BranchDto[]; commits: GitCommitInfo[] } {
  const c = (n: number, date: string, subject: string): GitCommitInfo => {
    const hash = `${String(n).padStart(2, "0")}`.repeat(20);
    return { hash, shortHash: hash.slice(0, 7), date, subject, message: subject };
  };
  const init = c(1, "2026-01-05T09:00:00Z", "chore: initial import of Acme Orders service");
  const ua1 = c(2, "2026-01-14T10:20:00Z", "feat(auth): add password policy for local accounts");
  const ua2 = c(3, "2026-01-19T15:45:00Z", "feat(auth): lock accounts after repeated failed logins");
  const m1 = c(4, "2026-01-21T11:05:00Z", "fix(auth): set Secure and SameSite=Lax on the authentication cookie outside development");
  const ar1 = c(5, "2026-01-27T16:30:00Z", "refactor(api): extract problem+json helper from controller error paths");
  const j1 = c(6, "2026-02-03T10:12:00Z", "[JIRA-123] feat(export): create UserExporter service");
  const j2 = c(7, "2026-02-05T14:48:00Z", "[JIRA-123] feat(export): add export endpoint");
  const m2 = c(8, "2026-02-06T09:30:00Z", "docs(runbooks): add payment webhook replay runbook");
  const j3 = c(9, "2026-02-09T14:10:00Z", "[JIRA-123] fix(export): neutralise spreadsheet formulas in CSV cells");
  const recent = (...cs: GitCommitInfo[]) => cs.map((x) => ({ shortHash: x.shortHash, subject: x.subject, date: x.date }));
  return {
    branches: [
      { name: "feature/JIRA-123", lastCommitDate: j3.date, recent: recent(j3, j2, j1, m1, init) },
      { name: "main", lastCommitDate: m2.date, recent: recent(m2, m1, init) },
      { name: "refactor/api-refactor", lastCommitDate: ar1.date, recent: recent(ar1, m1, init) },
      { name: "feature/user-auth", lastCommitDate: ua2.date, recent: recent(ua2, ua1, init) },
    ],
    commits: [j3, m2, j2, j1, ar1, m1, ua2, ua1, init],
  };
}
