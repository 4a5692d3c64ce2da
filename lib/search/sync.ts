/**
 * Keeps a project's search entries in step with what is indexed. Entries are compared by a
 * hash of their content, so a re-index writes only what changed; a source that cannot be
 * read this time (a corrupt memory.yml) keeps its stored entries.
 */
import { createHash } from "node:crypto";
import { changedRunFindings } from "../deep-context/service";
import {
  applyEntryChanges,
  dropSource,
  entryHashes,
  entryKey,
  indexedContent,
  sourceFingerprint,
  sourceKeys,
  type EntryChanges,
} from "../db/repositories/search";
import { getProject } from "../db/repositories/projects";
import { readCoord } from "../memory/coord";
import { commitEntries, documentEntries, findingEntries, memoryEntries, packetEntries, topicEntries, type EntryInput } from "./entries";
import type { SearchKind } from "./schemas";
import { indexWords, segmentForIndex } from "./text";

export interface SyncStats {
  written: number;
  removed: number;
}

// A finding is dated by its run's latest event when first indexed; a later event alone must not
// rewrite every finding of the run, so its date stays out of the hash.
const hashOf = (e: EntryInput) => createHash("sha256").update(JSON.stringify([e.title, e.body, e.status, e.kind === "finding" ? null : e.date, e.href])).digest("hex");

/** The changes that make the stored entries of `kinds` equal `entries`. */
async function diff(projectId: string, kinds: readonly SearchKind[], entries: EntryInput[], refPrefix = ""): Promise<EntryChanges> {
  const stored = await entryHashes(projectId, kinds, refPrefix);
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
  const remove = [...stored.keys()].filter((k) => !seen.has(k)).map((k) => {
    const [kind, ref] = k.split("\u0000") as [string, string];
    return { kind, ref };
  });
  return { upsert, remove };
}

const stats = (c: EntryChanges): SyncStats => ({ written: c.upsert.length, removed: c.remove.length });

const INDEXED_KINDS: SearchKind[] = ["topic", "summary", "document", "requirement", "knowledge", "commit", "packet", "brief"];

/** Topics, documents, commits, packets and memory events of a project (findings: syncRunSearch). */
export async function syncProjectSearch(projectId: string): Promise<SyncStats> {
  const content = await indexedContent(projectId);
  const entries = [
    ...topicEntries(projectId, content),
    ...documentEntries(projectId, content.documents),
    ...commitEntries(projectId, content.commits),
    ...packetEntries(projectId, content.packets),
  ];
  const changes = await diff(projectId, INDEXED_KINDS, entries);
  await applyEntryChanges(projectId, changes);
  const memory = await syncMemorySearch(projectId);
  return { written: changes.upsert.length + memory.written, removed: changes.remove.length + memory.removed };
}

/** One packet or brief, after it is saved, imported, duplicated or archived. */
export async function syncPacketSearch(projectId: string, packetId: string): Promise<SyncStats> {
  const content = await indexedContent(projectId, { packetId });
  const entries = packetEntries(projectId, content.packets);
  const changes = await diff(projectId, ["packet", "brief"], entries);
  // Only this packet: every other stored packet entry stays.
  changes.remove = changes.remove.filter((r) => r.ref === packetId);
  await applyEntryChanges(projectId, changes);
  return stats(changes);
}

/** The memory log's events, with their current status (after an apply, or on index). */
export async function syncMemorySearch(projectId: string): Promise<SyncStats> {
  const project = await getProject(projectId);
  const snapshot = await readCoord(project.rootPath);
  const unreadable = snapshot.errors.some((e) => e.file === ".coord/memory.yml" && e.severity !== "warning");
  // A memory.yml that cannot be read whole now keeps what was indexed from it before.
  if (unreadable) return { written: 0, removed: 0 };
  const entries = memoryEntries(projectId, snapshot.memory?.view.entries ?? []);
  const changes = await diff(projectId, ["memory"], entries);
  await applyEntryChanges(projectId, changes);
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
