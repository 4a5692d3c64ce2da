import { WorkbenchError } from "../core/errors";
import { gitFingerprint, readBranches, readCommits } from "../core/git";
import { ProjectFs } from "../core/project-fs";
import type { FileWarning } from "../core/warnings";
import type { IndexChanges, IndexStats, JobPhase } from "../db/dto";
import { getProjectIndexState } from "../db/repositories/projects";
import { loadFingerprints, writeIndex } from "../db/repositories/index-store";
import { buildDocuments, listFiles, planScan, scanSources, type AreaFile } from "../inventory/scan";
import { buildTopicRow } from "../inventory/topics";
import { diffFiles, listingDigest, scopeFor } from "./plan-changes";
import pMap from "p-map";
import { discoverRuns, type RunPacket } from "../deep-context/discover";
import { type RunSummary, summarizeRun } from "../deep-context/views";
import { replaceRuns } from "../db/repositories/runs";
import { syncProjectSearch } from "../search/sync";
import { MEMORY_FILE } from "../memory/memory-path";
import { readFreshnessText, saveFreshnessText } from "../db/repositories/index-freshness";
import { takeFreshness, type Seen } from "../core/fs/freshness";
import { gitLocationEnv } from "../core/env-plain";
import { unchangedStats, type UnchangedStats } from "./unchanged";

/**
 * Refusals the file layer raises while listing, on every run whatever changed (every indexed
 * folder is walked each time): they are replaced as a whole, so a fixed link stops warning.
 */
const LISTING_REFUSALS = ["outside_root", "symlink_loop", "symlink_alias", "not_regular", "hard_link", "path_too_long", "walk_budget"] as const;

export type ProgressFn = (phase: JobPhase, done: number, total: number) => void;

/**
 * Indexes one project: resolves its configuration, finds the files that changed since
 * the last run, re-reads only the entries they belong to, and writes the result in one
 * transaction. Running it twice on an unchanged project changes nothing.
 */
export async function indexProject(projectId: string, onProgress: ProgressFn = () => undefined, opts: { full?: boolean; compared?: boolean } = {}): Promise<IndexStats> {
  const started = Date.now();
  // Nothing the last job looked at changed: its result stands, and nothing is read.
  // (`compared`: the caller has just asked unchangedStats and was told something changed.)
  if (!opts.full && !opts.compared) onProgress("freshness", 0, 0);
  const unchanged = opts.full || opts.compared ? null : await unchangedStats(projectId);
  if (unchanged) {
    onProgress("done", 0, 0);
    return { ...unchanged, durationMs: Date.now() - started };
  }
  // A job that stops half-way must not leave the last record vouching for what it changed, and
  // the search index is synced after the index's own commit: a run killed between the two left
  // search entries of the old files, which the next incremental run (seeing nothing changed)
  // never rewrote. The pending mark, replaced only once search is synced, makes the next run
  // compare every search entry.
  const searchPending = (await readFreshnessText(projectId)) === SEARCH_PENDING;
  await saveFreshnessText(projectId, new Date(started), SEARCH_PENDING);
  // The files, texts and documents read for the write are out of scope from here on: the
  // search rebuild reads what it needs back a page at a time, and peak memory stays lower.
  const { stats, full, changes, observed, root, complete } = await writeProjectIndex(projectId, onProgress, opts);
  onProgress("search", 0, 0);
  // The index is written; a search-index failure is logged and never fails the job.
  // A full run compares every entry; otherwise only what this run rewrote is rebuilt.
  let searched = true;
  await syncProjectSearch(projectId, full || searchPending ? undefined : changes).catch((e: unknown) => {
    searched = false;
    console.error("[workbench] search index of project", projectId, e);
  });
  // Only a job that read everything it looked at, search included, can vouch for the next.
  if (complete && searched) {
    onProgress("freshness", 0, 0);
    await recordFreshness(projectId, root, observed, started, stats);
  } else if (searched) await saveFreshnessText(projectId, new Date(started), null);
  onProgress("done", stats.filesChanged, stats.filesChanged);
  return { ...stats, durationMs: Date.now() - started };
}

/** What the next job compares against (lib/core/fs/freshness.ts); a record that cannot be trusted is not kept. */
/** The freshness row while a run's search sync is outstanding (parseFreshness reads it as no record). */
const SEARCH_PENDING = JSON.stringify({ searchPending: true });

async function recordFreshness(projectId: string, root: string, observed: Map<string, Seen>, started: number, stats: Omit<IndexStats, "durationMs">): Promise<void> {
  // The search sync reads the memory log through its own view of the project.
  if (!observed.has(MEMORY_FILE)) observed.set(MEMORY_FILE, undefined);
  const again: UnchangedStats = { ...stats, filesChanged: 0, filesRemoved: 0, documents: 0, commits: 0, branches: 0, gitSkipped: true };
  const record = takeFreshness(root, observed, started, again, gitLocationEnv());
  await saveFreshnessText(projectId, new Date(started), record ? JSON.stringify(record) : null);
}

/** Everything but search: reads what changed and writes it in one transaction. */
async function writeProjectIndex(
  projectId: string,
  onProgress: ProgressFn,
  opts: { full?: boolean },
): Promise<{ stats: Omit<IndexStats, "durationMs">; full: boolean; changes: IndexChanges; observed: Map<string, Seen>; root: string; complete: boolean }> {
  const state = await getProjectIndexState(projectId);
  if (!state) throw new WorkbenchError("NOT_FOUND", "No such project.");
  const pfs = await ProjectFs.open(state.rootPath);
  const observed = pfs.observe();
  const warnings: FileWarning[] = [];
  // A file two sources read (a docs/ page is both a knowledge-base document and searchable text) warns once.
  const warned = new Set<string>();
  const warn = (w: FileWarning) => {
    const key = `${w.relPath}\0${w.code}`;
    if (warned.has(key)) return;
    warned.add(key);
    warnings.push(w);
  };
  // One read per file per run: the documents pass reuses what the sources pass read.
  const ctx = { pfs, warn, cache: new Map<string, string | null>(), failed: new Set<string>() };
  // git runs on the other core while this thread walks the tree.
  const gitFp = gitFingerprint(pfs.root);

  onProgress("config", 0, 0);
  const plan = await planScan(pfs, warn);
  const configChanged = state.configJson !== JSON.stringify(plan.layouts);

  onProgress("listing", 0, 0);
  const files = await listFiles(pfs, plan);
  const digest = listingDigest(files);
  const { full, changed, removed } = await planFiles(projectId, files, opts.full || configChanged, state.listingDigest === digest);
  const total = changed.length;
  // Branches and commits are read by git processes on the other core while sources are parsed.
  const gitRead = readGit(pfs.root, gitFp, full, state.gitFingerprint);
  // Awaited in the git phase; until then a failure must not surface as an unhandled rejection.
  gitRead.catch(() => undefined);
  onProgress("sources", 0, total);

  const touched = [...changed.map((f) => f.relPath), ...removed];
  const scope = full ? undefined : scopeFor(touched, plan.roots);
  const needSources = full || (scope && scope.size > 0);
  const scan = needSources ? await scanSources(ctx, plan, scope) : { records: [], present: new Map() };
  onProgress("sources", Math.min(total, scan.records.length), total);

  onProgress("documents", 0, total);
  // A knowledge area is rebuilt whole only when its index changes (requirements
  // index.json, product manifest.json); otherwise only its changed files are re-read.
  const areaIndexTouched = (dirs: string[], name: string) => touched.some((p) => dirs.some((d) => p === (d === "." ? name : `${d}/${name}`)));
  const replaceAreas = (["requirements", "product"] as const).filter((a) => full || (a === "requirements" ? areaIndexTouched(plan.requirementsDirs, "index.json") : areaIndexTouched(plan.productDirs, "manifest.json")));
  const replaced = (f: AreaFile) => (replaceAreas as readonly string[]).includes(f.area);
  const docFiles = [...changed.filter((f) => !replaced(f)), ...files.filter(replaced)];
  const documents = await buildDocuments(ctx, plan, docFiles, replaceAreas);
  // Both passes are done: the texts they shared need not live through the write.
  ctx.cache.clear();
  onProgress("documents", total, total);

  onProgress("git", 0, 0);
  const git = await gitRead;

  // Deep-loop run packets: re-read on every index (state logs are small and append-only,
  // and a live run must show its new lines).
  onProgress("runs", 0, 0);
  const packets = await discoverRuns(pfs);
  const runs = await pMap(packets, (p) => summarizeRun(pfs, p, warn).catch((e: unknown) => unreadableRun(p, e, warn)), { concurrency: 8 });

  const rescanned = full ? new Map((["work", "brainstorm", "proposal", "refactoring"] as const).map((s) => [s, "all" as const])) : (scope ?? new Map());
  // Legacy brainstorms are read through the work folder: a work rescan covers them too.
  if (!full && rescanned.has("work") && !rescanned.has("brainstorm")) rescanned.set("brainstorm", new Set());
  const entryScopes = full
    ? [""]
    : [
        ...touched,
        ...plan.layouts.map((l) => `${l.agentDir}/configuration.yml`),
        // Manifests are re-read (and their warnings re-raised) only when sources are scanned.
        ...(needSources ? plan.roots.map((r) => `${r.dir}/manifest.json`) : []),
        ...[...rescanned].flatMap(([source, slugs]) =>
          slugs === "all"
            ? plan.roots.filter((r) => r.source === source).map((r) => r.dir)
            : plan.roots.filter((r) => r.source === source).flatMap((r) => [...slugs].flatMap((s) => [`${r.dir}/${s}`, `${r.dir}/${s}.md`])),
        ),
        ...replaceAreas.flatMap((a) => (a === "requirements" ? plan.requirementsDirs : plan.productDirs)),
        // Run packets are re-read every time, so their warnings are replaced every time.
        ...packets.map((p) => p.relPath),
        // So are the files the documents pass re-read, and those every walk refuses again.
        ...docFiles.map((f) => f.relPath),
        ...pfs.skipped.map((w) => w.relPath),
      ];

  // The file layer names every file it refused (links out, loops, pipes, binary files, …),
  // including those a reader skipped without a word; a reader's own warning for a file wins.
  const named = new Set(warnings.map((w) => `${w.relPath}\0${w.code}`));
  for (const w of pfs.skipped) if (!named.has(`${w.relPath}\0${w.code}`)) warnings.push(w);
  // Files of an entry that failed to index keep no fingerprint, so the next run reads them again.
  const failedDirs = [...ctx.failed].flatMap((key) => {
    const [source, slug] = key.split("\0") as [string, string];
    return plan.roots.filter((r) => r.source === source).map((r) => `${r.dir}/${slug}`);
  });
  const fingerprinted = failedDirs.length ? changed.filter((f) => !failedDirs.some((d) => f.relPath === d || f.relPath.startsWith(`${d}/`) || f.relPath === `${d}.md`)) : changed;

  onProgress("saving", 0, documents.length);
  const { topics, changes } = await writeIndex(
    {
      projectId,
      layouts: plan.layouts,
      changedFiles: fingerprinted,
      removedFiles: removed,
      records: scan.records,
      rescanned,
      present: scan.present,
      documents,
      documentPathsToDelete: [...removed, ...changed.map((f) => f.relPath)],
      documentAreasToReplace: replaceAreas,
      warningScopes: entryScopes,
      warningCodesReplaced: LISTING_REFUSALS,
      keepEntries: ctx.failed,
      warnings,
      git,
      // An entry that failed keeps its files unfingerprinted: the next listing must be compared.
      listingDigest: ctx.failed.size === 0 ? digest : null,
      topicRow: buildTopicRow,
    },
    (phase, d, t) => onProgress(phase, d, t),
  );
  await replaceRuns(projectId, runs);
  // Findings are added by syncRunSearch after the job: reducing a large run takes seconds.
  return {
    full,
    changes,
    observed,
    root: pfs.root,
    complete: ctx.failed.size === 0,
    stats: {
      filesTotal: files.length,
      filesChanged: changed.length,
      filesRemoved: removed.length,
      topics,
      documents: documents.length,
      commits: git?.commits.length ?? 0,
      branches: git?.branches.length ?? 0,
      gitSkipped: git === null,
      runs: runs.length,
    },
  };
}

type GitWrite = Parameters<typeof writeIndex>[0]["git"];

/** The git part of the write: null when the refs did not move since the last index. */
async function readGit(root: string, fingerprint: Promise<string | null | undefined>, full: boolean, stored: string | null): Promise<GitWrite> {
  const fp = await fingerprint;
  if (fp === undefined) return full ? { fingerprint: null, branches: [], commits: [] } : null;
  if (!full && fp === stored) return null;
  const [branches, commits] = await Promise.all([readBranches(root), readCommits(root)]);
  return { fingerprint: fp, branches, commits };
}

/**
 * Which files to read: all of them on a full run; none when the listing's digest equals the
 * stored one (the stored fingerprints match it exactly); otherwise those whose fingerprint differs.
 */
async function planFiles(projectId: string, files: AreaFile[], forceFull: boolean, sameListing: boolean): Promise<{ full: boolean; changed: AreaFile[]; removed: string[] }> {
  if (!forceFull && sameListing) return { full: false, changed: [], removed: [] };
  const previous = forceFull ? new Map<string, { size: number; mtimeMs: number }>() : await loadFingerprints(projectId);
  if (forceFull || previous.size === 0) {
    const byPath = new Set(files.map((f) => f.relPath));
    const stored = forceFull ? await loadFingerprints(projectId) : previous;
    return { full: true, changed: files, removed: [...stored.keys()].filter((p) => !byPath.has(p)) };
  }
  return { full: false, ...diffFiles(files, previous) };
}

/** A run whose packet could not be summarised: listed with nothing known, and a warning naming it. */
function unreadableRun(packet: RunPacket, e: unknown, warn: (w: FileWarning) => void): RunSummary {
  const why = e instanceof Error ? e.message.split("\n")[0] : String(e);
  warn({ relPath: packet.relPath, code: "unreadable", message: `${packet.relPath}: the run packet could not be read (${why}); its page says what it can.` });
  return { ...packet, scope: null, status: null, iterations: 0, decision: null, stopReason: null, findings: null, lastEventAt: null, corruptLines: 0, executors: [] };
}
