/**
 * Keeps a project's search entries in step with what is indexed. After an index run only the
 * entries of what that run rewrote are rebuilt (its IndexChanges); their content hashes then
 * keep unchanged entries from being written again, and a count per kind catches anything
 * the change set missed. A source that cannot be read this time (a corrupt memory.yml)
 * keeps its stored entries.
 */
import { sha256Hex } from "../core/sha256";
import { changedRunFindings } from "../deep-context/service";
import type { IndexChanges } from "../db/dto";
import {
  applyEntryChangeBatches,
  applyEntryChanges,
  dropSource,
  entryCounts,
  entryHashes,
  entryKey,
  indexedCommits,
  indexedCounts,
  indexedDocuments,
  indexedDocumentsPage,
  indexedTopicsPage,
  indexedPackets,
  indexedTopics,
  sourceFingerprint,
  sourceKeys,
  writeEntryChanges,
  type EntryChanges,
  type IndexedContent,
} from "../db/repositories/search";
import type { SqlTx } from "../db/sql-tx";
import { getProjectHead } from "../db/repositories/projects";
import { ProjectFs } from "../core/project-fs";
import { MEMORY_FILE } from "../memory/memory-path";
import { commitEntries, documentEntries, findingEntries, memoryEntries, packetEntries, topicEntries, type EntryInput } from "./entries";
import type { SearchKind } from "./schemas";
import { indexWords, segmentForIndex } from "./text";

export interface SyncStats {
  written: number;
  removed: number;
}

// A finding is dated by its run's latest event when first indexed; a later event alone must not
// rewrite every finding of the run, so its date stays out of the hash.
// Length-prefixed parts, so no two entries hash alike by shifting text between fields.
function hashOf(e: EntryInput): string {
  let text = "";
  for (const part of [e.title, e.body, e.status, e.kind === "finding" ? null : e.date, e.href]) text += part === null ? "-;" : `${part.length}:${part};`;
  return sha256Hex(text);
}

/**
 * The changes that make the stored entries of `kinds` equal `entries`; with `refs`, only the
 * stored entries with those refs are compared (and removed when `entries` lacks them).
 */
async function diff(projectId: string, kinds: readonly SearchKind[], entries: EntryInput[], refPrefix = "", refs?: readonly string[] | "none-stored"): Promise<EntryChanges> {
  const stored = refs === "none-stored" ? new Map<string, string>() : await entryHashes(projectId, kinds, refPrefix, refs);
  const seen = new Set<string>();
  const upsert: EntryChanges["upsert"] = [];
  for (const raw of entries) {
    // PostgreSQL text cannot hold NUL (a finding's symbol read from a broken seat can).
    const e = { ...raw, ref: raw.ref.replaceAll("\u0000", ""), status: raw.status?.replaceAll("\u0000", "") ?? null, href: raw.href.replaceAll("%00", "") };
    const k = entryKey(e.kind, e.ref);
    if (seen.has(k)) continue;
    seen.add(k);
    const hash = hashOf(e);
    if (stored.get(k) === hash) continue;
    const title = segmentForIndex(e.title);
    const body = segmentForIndex(e.body);
    upsert.push({ entry: { ...e, title, body, hash }, words: () => ({ title: indexWords(title), body: indexWords(body) }) });
  }
  const remove = [...stored.keys()]
    .filter((k) => !seen.has(k))
    .map((k) => {
      const [kind, ref] = k.split("\u0000") as [string, string];
      return { kind, ref };
    });
  return { upsert, remove, allNew: refs === "none-stored" };
}

const stats = (c: EntryChanges): SyncStats => ({ written: c.upsert.length, removed: c.remove.length });

const DOCUMENT_KINDS: SearchKind[] = ["summary", "document", "requirement", "knowledge", "kb"];
/** A replaced knowledge area holds entries of one kind only (see documentKind). */
const AREA_KIND = { requirements: "requirement", product: "knowledge" } as const;

/**
 * Rows read per step of a whole rebuild (see wholePaged): one step's rows, entries and hashes
 * are all that is held at a time. (Measured: the heap's growth during the rebuild is about the
 * same at 250 or 2,000 per step; the step size bounds what is live, not the garbage.)
 */
const PAGE = 250;

async function applied(projectId: string, c: EntryChanges): Promise<SyncStats> {
  await applyEntryChanges(projectId, c);
  return stats(c);
}

const add = (a: SyncStats, b: SyncStats): SyncStats => ({ written: a.written + b.written, removed: a.removed + b.removed });

/**
 * Every entry of one group, a page of indexed rows at a time, written in one transaction.
 * Topics are paged as well as documents: built all at once, 5,000 topic entries outlived a
 * young-generation collection together, V8 then allocated every later entry (the documents')
 * straight into the old generation, and the bench index's heap grew by 50 MB before the next
 * full collection.
 */
async function wholePaged<Page>(
  projectId: string,
  kinds: readonly SearchKind[],
  readPage: (after: string | null) => Promise<Page>,
  /** The entry refs of a page's rows, in the order read (the last one is where the next page starts). */
  refsOf: (page: Page) => string[],
  entriesOf: (page: Page) => EntryInput[],
): Promise<SyncStats> {
  // A project's first rebuild (a new project's full index) has nothing stored to compare with.
  const counts = await entryCounts(projectId);
  const noneStored = kinds.every((k) => !counts.get(k));
  async function* batches(): AsyncGenerator<EntryChanges> {
    const present = new Set<string>();
    let after: string | null = null;
    for (;;) {
      const page = await readPage(after);
      const refs = refsOf(page);
      if (refs.length === 0) break;
      after = refs[refs.length - 1]!;
      for (const r of refs) present.add(r);
      yield await diff(projectId, kinds, entriesOf(page), "", noneStored ? "none-stored" : refs);
    }
    if (noneStored) return;
    // Entries of rows that are gone (no page held their key).
    const remove = [...(await entryHashes(projectId, kinds)).keys()]
      .map((k) => k.split("\u0000") as [string, string])
      .filter(([, ref]) => !present.has(ref))
      .map(([kind, ref]) => ({ kind, ref }));
    yield { upsert: [], remove };
  }
  return applyEntryChangeBatches(projectId, batches());
}

const wholeTopics = (projectId: string) =>
  wholePaged(
    projectId,
    ["topic"],
    (after) => indexedTopicsPage(projectId, after, PAGE),
    (page) => page.topics.map((t) => t.slug),
    (page) => topicEntries(projectId, page),
  );

const wholeDocuments = (projectId: string) =>
  wholePaged(
    projectId,
    DOCUMENT_KINDS,
    (after) => indexedDocumentsPage(projectId, after, PAGE),
    (page) => page.map((d) => d.relPath),
    (page) => documentEntries(projectId, page),
  );

/** Each search group rebuilt whole: its entries from every indexed row, written as it goes. */
const WHOLE = {
  topics: wholeTopics,
  documents: wholeDocuments,
  commits: async (projectId: string) => applied(projectId, await diff(projectId, ["commit"], commitEntries(projectId, await indexedCommits(projectId)))),
  packets: async (projectId: string) => applied(projectId, await diff(projectId, ["packet", "brief"], packetEntries(projectId, await indexedPackets(projectId)))),
};
type Group = keyof typeof WHOLE;
const GROUP_KINDS: Record<Group, readonly string[]> = { topics: ["topic"], documents: DOCUMENT_KINDS, commits: ["commit"], packets: ["packet", "brief"] };

/** One group after another, so only one group's rows and entries are held at a time. */
async function rebuildWhole(projectId: string, groups: readonly Group[]): Promise<SyncStats> {
  let total: SyncStats = { written: 0, removed: 0 };
  for (const g of groups) total = add(total, await WHOLE[g](projectId));
  return total;
}

/** Only what an index run rewrote: its topics, its documents (and replaced areas), its commits. */
async function syncChanged(projectId: string, c: IndexChanges): Promise<{ stats: SyncStats; groups: Set<Group> }> {
  let total: SyncStats = { written: 0, removed: 0 };
  const groups = new Set<Group>();
  if (c.topicSlugs.length) total = add(total, await applied(projectId, await diff(projectId, ["topic"], topicEntries(projectId, await indexedTopics(projectId, c.topicSlugs)), "", c.topicSlugs)));
  for (const area of c.documentAreas) {
    total = add(total, await applied(projectId, await diff(projectId, [AREA_KIND[area]], documentEntries(projectId, await indexedDocuments(projectId, { areas: [area] })))));
  }
  if (c.documentPaths.length) {
    // A replaced area's kind was compared whole above; the paths cover every other kind.
    const replaced = new Set<string>(c.documentAreas.map((a) => AREA_KIND[a]));
    const docs = (await indexedDocuments(projectId, { paths: c.documentPaths })).filter((d) => !(c.documentAreas as string[]).includes(d.area));
    total = add(
      total,
      await applied(
        projectId,
        await diff(
          projectId,
          DOCUMENT_KINDS.filter((k) => !replaced.has(k)),
          documentEntries(projectId, docs),
          "",
          c.documentPaths,
        ),
      ),
    );
  }
  if (c.commits) {
    total = add(total, await WHOLE.commits(projectId));
    groups.add("commits");
  }
  return { stats: total, groups };
}

/** Groups whose stored entry count differs from their indexed row count: rebuilt whole. */
async function groupsOutOfStep(projectId: string): Promise<Group[]> {
  const [entries, rows] = await Promise.all([entryCounts(projectId), indexedCounts(projectId)]);
  const stored = (g: Group) => GROUP_KINDS[g].reduce((n, k) => n + (entries.get(k) ?? 0), 0);
  return (Object.keys(WHOLE) as Group[]).filter((g) => stored(g) !== rows[g]);
}

/**
 * Topics, documents, commits, packets and memory events of a project (findings: syncRunSearch).
 * With `changes` (what an index run rewrote) only those entries are rebuilt; without, every
 * entry is compared.
 */
export async function syncProjectSearch(projectId: string, changes?: IndexChanges): Promise<SyncStats> {
  const all = Object.keys(WHOLE) as Group[];
  let total: SyncStats;
  if (!changes) {
    total = await rebuildWhole(projectId, all);
  } else {
    const scoped = await syncChanged(projectId, changes);
    const stale = (await groupsOutOfStep(projectId)).filter((g) => !scoped.groups.has(g));
    total = add(scoped.stats, await rebuildWhole(projectId, stale));
  }
  return add(total, await syncMemorySearch(projectId));
}

/**
 * One packet's or brief's entry, replaced on the transaction that writes the packet (created,
 * saved, reviewed, renamed or archived), as that transaction stores it: the packet and its
 * entry are committed together. Written after the commit, a process killed in between left
 * the search showing the old title, text and review status until the packet was written again.
 */
export async function writePacketSearch(tx: SqlTx, projectId: string, packet: IndexedContent["packets"][number]): Promise<void> {
  const entries = packetEntries(projectId, [packet]);
  // Nothing stored is compared: the entry is replaced whole, whatever was there.
  const changes = await diff(projectId, ["packet", "brief"], entries, "", "none-stored");
  const kinds = new Set(entries.map((e) => e.kind));
  const others = (["packet", "brief"] as const).filter((k) => !kinds.has(k)).map((kind) => ({ kind, ref: packet.id }));
  await writeEntryChanges(tx, projectId, { upsert: changes.upsert, remove: others, allNew: false });
}

const MEMORY_SOURCE = "memory";

/** memory.yml's size and time, or "none": what the memory entries were last built from. */
async function memoryFingerprint(root: string): Promise<string> {
  const pfs = await ProjectFs.open(root);
  const entry = await pfs.stat(MEMORY_FILE).catch(() => null);
  return entry ? `${entry.size}:${entry.mtimeMs}` : "none";
}

/**
 * The memory log's events, with their current status (after an apply, or on index). Skipped
 * while memory.yml keeps the size and time it had at the last sync: every index job asks, and
 * parsing and validating the log is most of an unchanged project's re-index.
 */
export async function syncMemorySearch(projectId: string): Promise<SyncStats> {
  const project = await getProjectHead(projectId);
  const fingerprint = await memoryFingerprint(project.rootPath);
  if (fingerprint === (await sourceFingerprint(projectId, MEMORY_SOURCE))) return { written: 0, removed: 0 };
  const { readCoordMemory } = await import("../memory/coord");
  const { memory, errors } = await readCoordMemory(project.rootPath);
  const unreadable = errors.some((e) => e.file === MEMORY_FILE && e.severity !== "warning");
  // A memory.yml that cannot be read whole now keeps what was indexed from it before (and is read again next time).
  if (unreadable) return { written: 0, removed: 0 };
  const entries = memoryEntries(projectId, memory?.view.entries ?? []);
  const changes = await diff(projectId, ["memory"], entries);
  await applyEntryChanges(projectId, changes, { key: MEMORY_SOURCE, fingerprint });
  return stats(changes);
}

const RUN_SOURCE = "run:";

/** Findings of the project's deep-context runs whose packets changed since the last sync. */
export async function syncRunSearch(projectId: string): Promise<SyncStats> {
  const { runIds, changed } = await changedRunFindings(projectId, (runId) => sourceFingerprint(projectId, RUN_SOURCE + runId));
  const total: SyncStats = { written: 0, removed: 0 };
  for (const { run, fingerprint, findings } of changed) {
    const entries = findingEntries(projectId, run.id, run.lastEventAt, findings);
    const changes = await diff(projectId, ["finding"], entries, `${run.id}:`);
    await applyEntryChanges(projectId, changes, { key: RUN_SOURCE + run.id, fingerprint });
    total.written += changes.upsert.length;
    total.removed += changes.remove.length;
  }
  const live = new Set(runIds.map((id) => RUN_SOURCE + id));
  for (const key of await sourceKeys(projectId, RUN_SOURCE)) {
    if (!live.has(key)) await dropSource(projectId, key, "finding", `${key.slice(RUN_SOURCE.length)}:`);
  }
  return total;
}
