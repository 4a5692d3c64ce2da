/**
 * The memory lock `.coord/memory.yml.lock`: an atomic create-only file recording who holds it
 * (FORMATS §4: owner, created_at, task_id, proposal_id). Whoever creates the file holds the lock;
 * everyone else is refused, so concurrent applies serialize.
 *
 * The record goes to a temp file beside the lock first (`<lock>.tmp.<pid>.<hex>`), the name is
 * claimed empty with an exclusive create, and the temp file is renamed over the claim: a process
 * killed in between leaves an empty lock whose owner is still known, from the temp file, so it can
 * be confirmed dead and the lock reclaimed (an empty lock written in place named nobody, and stayed
 * until someone deleted it by hand).
 *
 * A lock left behind by a crash is *reported* as stale (older than the limit, or its owner's pid
 * is dead on this host), never broken silently: the reference says a stale-looking lock is not
 * standing permission to delete it. {@link breakStaleLock} removes one only when this host can
 * confirm its owner process is gone, and is for an explicit human action.
 *
 * Lock files are project files: read through ProjectFs, created, moved and removed only at paths
 * from `writablePathSync` (a real folder inside the project; a lock name that is a link is refused).
 */
import crypto from "node:crypto";
import os from "node:os";
import { WorkbenchError, isWorkbenchError } from "../core/errors";
import { createByClaimSync, linkNoReplaceSync, moveFileSync, removeFileSync } from "../core/fs/exclusive-create";
import type { ProjectFs } from "../core/project-fs";
import { LOCK_FILE } from "./schemas";
import { formatTimestamp, parseTimestamp } from "./timestamp";
import { processAlive } from "../core/process-alive";

export { LOCK_FILE };
/** Older than this, a lock is reported stale even when its owner cannot be checked. */
export const DEFAULT_STALE_AFTER_MS = 5 * 60 * 1000;
/** A lock record is one short JSON line; anything longer is not one. */
const MAX_LOCK_BYTES = 64 * 1024;

export interface LockRecord {
  /** `pid@host` of the process holding the lock. */
  owner: string;
  created_at: string;
  task_id: string;
  proposal_id: string;
  /** Random per acquisition, so a holder releases only its own lock. */
  token: string;
}

export interface LockStatus {
  /** The parsed record; null when the file is empty or not a lock record (a crash mid-create). */
  record: LockRecord | null;
  /**
   * An empty lock (its creator killed between claiming the name and moving its record in): the
   * records in the creators' temp files beside it, its creator's among them. Absent otherwise.
   */
  creators?: { file: string; record: LockRecord }[];
  ageMs: number;
  /** true: pid alive on this host; false: dead on this host; null: another host or unknown. */
  ownerAlive: boolean | null;
  stale: boolean;
  staleReasons: ("older_than_limit" | "owner_dead" | "unreadable")[];
}

export interface HeldLock {
  record: LockRecord;
  /** Removes the lock file if it is still ours. Safe to call twice. */
  release(): void;
}

function parseOwner(owner: string): { pid: number; host: string } | null {
  const m = /^(\d+)@(.+)$/.exec(owner);
  return m ? { pid: Number(m[1]), host: m[2]! } : null;
}

function readRecord(text: string): LockRecord | null {
  try {
    const v = JSON.parse(text) as Partial<LockRecord>;
    if (typeof v.owner === "string" && typeof v.created_at === "string" && typeof v.task_id === "string" && typeof v.proposal_id === "string" && typeof v.token === "string") {
      return { owner: v.owner, created_at: v.created_at, task_id: v.task_id, proposal_id: v.proposal_id, token: v.token };
    }
  } catch {
    /* not JSON */
  }
  return null;
}

/** The lock file's text, or null when there is none; a refusal (a link out, a pipe…) is thrown as ProjectFs names it. */
function readLockText(pfs: ProjectFs, rel: string): string | null {
  try {
    return pfs.readTextSync(rel, MAX_LOCK_BYTES);
  } catch (e) {
    if (isWorkbenchError(e) && e.code === "NOT_FOUND") return null;
    throw e;
  }
}

/** Whether the `pid@host` owner is alive: null when it is on another host or not a pid@host. */
function ownerAliveOf(owner: string): boolean | null {
  const o = parseOwner(owner);
  return o && o.host === os.hostname() ? processAlive(o.pid) : null;
}

/**
 * The records in the temp files of the lock's creators (`<lock>.tmp.*`). A creator writes its
 * whole record there before it claims the lock, so an unreadable temp file is one whose creator
 * never got to the claim: left out.
 */
function creatorRecords(pfs: ProjectFs, rel: string): { file: string; record: LockRecord }[] {
  const cut = rel.lastIndexOf("/");
  const dir = cut < 0 ? "" : rel.slice(0, cut);
  const prefix = `${rel.slice(cut + 1)}.tmp.`;
  const out: { file: string; record: LockRecord }[] = [];
  for (const e of pfs.listSync(dir)) {
    if (e.isDir || !e.name.startsWith(prefix)) continue;
    const file = dir ? `${dir}/${e.name}` : e.name;
    let record: LockRecord | null = null;
    try {
      record = readRecord(readLockText(pfs, file) ?? "");
    } catch {
      record = null; // refused by the file layer: not one of ours
    }
    if (record) out.push({ file, record });
  }
  return out;
}

/** The state of the lock file `rel` (relative to the project root), or null when there is none. */
export function readLockStatus(pfs: ProjectFs, rel: string, opts: { now?: Date; staleAfterMs?: number } = {}): LockStatus | null {
  const text = readLockText(pfs, rel);
  if (text === null) return null;
  const now = (opts.now ?? new Date()).getTime();
  const mtimeMs = pfs.statSync(rel)?.mtimeMs ?? now;
  const limit = opts.staleAfterMs ?? DEFAULT_STALE_AFTER_MS;
  const record = readRecord(text);
  const created = record ? parseTimestamp(record.created_at) : null;
  const createdMs = created?.ok ? Number(created.epochMicros / 1000n) : mtimeMs;
  const ageMs = Math.max(0, now - createdMs);
  let ownerAlive: boolean | null = record ? ownerAliveOf(record.owner) : null;
  // An empty lock was claimed by one of the creators whose temp files lie beside it: its owner is
  // dead when every one of them is (one alive, or on another host, may be the one claiming it now).
  const creators = text === "" ? creatorRecords(pfs, rel) : [];
  if (creators.length > 0) {
    const alive = creators.map((c) => ownerAliveOf(c.record.owner));
    ownerAlive = alive.includes(true) ? true : alive.every((a) => a === false) ? false : null;
  }
  const staleReasons: LockStatus["staleReasons"] = [];
  if (!record) staleReasons.push("unreadable");
  if (ageMs > limit) staleReasons.push("older_than_limit");
  if (ownerAlive === false) staleReasons.push("owner_dead");
  // An unreadable lock younger than the limit may be one being written right now.
  const stale = ownerAlive === false || ageMs > limit;
  return { record, ...(creators.length > 0 ? { creators } : {}), ageMs, ownerAlive, stale, staleReasons };
}

/** One line for an error message: who holds the lock and whether it looks stale. */
export function describeLock(s: LockStatus): string {
  const who = s.record
    ? `${s.record.owner} (task ${s.record.task_id}, proposal ${s.record.proposal_id}, since ${s.record.created_at})`
    : s.creators
      ? `an empty lock, cut off before its record was moved in by ${s.creators.map((c) => c.record.owner).join(" or ")}`
      : "an unreadable lock record";
  const stale = s.stale ? ` It looks stale (${s.staleReasons.join(", ").replace(/_/g, " ")}); confirm its owner is gone, then remove it.` : "";
  return `held by ${who}.${stale}`;
}

/**
 * Takes the lock or throws CONFLICT describing the holder (and staleness). The lock file appears
 * with its record written and fsynced, never empty.
 */
export function acquireLock(pfs: ProjectFs, rel: string, info: { taskId: string; proposalId: string; now?: Date; staleAfterMs?: number; locked?: string }): HeldLock {
  const record: LockRecord = {
    owner: `${process.pid}@${os.hostname()}`,
    created_at: formatTimestamp(info.now ?? new Date()),
    task_id: info.taskId,
    proposal_id: info.proposalId,
    token: crypto.randomBytes(12).toString("hex"),
  };
  const lockPath = pfs.writablePathSync(rel);
  let created: boolean;
  try {
    created = createByClaimSync(lockPath, `${lockPath}.tmp.${process.pid}.${record.token.slice(0, 12)}`, JSON.stringify(record) + "\n");
  } catch (e) {
    throw new WorkbenchError("UNREADABLE", `Cannot create the lock ${rel}.`, e);
  }
  if (!created) {
    const status = readLockStatus(pfs, rel, { staleAfterMs: info.staleAfterMs });
    throw new WorkbenchError("CONFLICT", `${info.locked ?? "memory.yml"} is locked: ${status ? describeLock(status) : "the lock was just released; try again."}`, { lock: status });
  }
  let released = false;
  return {
    record,
    release() {
      if (released) return;
      released = true;
      let current: LockRecord | null = null;
      try {
        const text = readLockText(pfs, rel);
        if (text === null) return; // already gone
        current = readRecord(text);
      } catch {
        return; // not a lock record of ours any more
      }
      if (current?.token === record.token) removeFileSync(lockPath);
    },
  };
}

/**
 * Removes a lock whose owner this host confirms dead (same host, pid gone; for an empty lock, every
 * creator whose temp file lies beside it). Anything less certain (another host, an unreadable
 * record, merely old) is refused: a human must check and delete it.
 * `label` names the lock in messages (the memory lock, or a proposal's or a checkpoint's decision lock).
 */
export function breakStaleLock(pfs: ProjectFs, rel: string, label = "memory lock", hooks: { beforeMove?: () => void } = {}): LockStatus {
  const s = readLockStatus(pfs, rel);
  if (!s) throw new WorkbenchError("NOT_FOUND", `There is no ${label}.`);
  if (s.ownerAlive !== false) {
    throw new WorkbenchError("GATE_REFUSED", `The ${label} is ${describeLock(s)} Its owner cannot be confirmed dead from this host, so it is not removed.`);
  }
  // Another breaker may have removed this lock and a live apply taken a new one since the read:
  // move the file aside first, and delete it only if it is still the record judged dead.
  const lockPath = pfs.writablePathSync(rel);
  const asideRel = `${rel}.breaking-${crypto.randomBytes(6).toString("hex")}`;
  const aside = pfs.writablePathSync(asideRel);
  hooks.beforeMove?.();
  if (!moveFileSync(lockPath, aside)) throw new WorkbenchError("CONFLICT", `The ${label} was removed meanwhile.`);
  let movedText: string | null = null;
  try {
    movedText = readLockText(pfs, asideRel);
  } catch {
    movedText = null;
  }
  const moved = readRecord(movedText ?? "");
  // An empty lock is the one judged while every creator with a temp file beside it is still dead
  // (a live one may have claimed the name anew meanwhile).
  const same = s.record ? moved?.token === s.record.token && moved?.owner === s.record.owner : movedText === "" && creatorRecords(pfs, rel).every((c) => ownerAliveOf(c.record.owner) === false);
  if (same) {
    removeFileSync(aside);
    // The dead creators' temp files go with their lock.
    for (const c of s.creators ?? []) removeFileSync(pfs.writablePathSync(c.file));
    return s;
  }
  // Not the lock we judged: put it back unless a newer one took its place (a link never overwrites).
  try {
    linkNoReplaceSync(aside, lockPath);
  } finally {
    removeFileSync(aside);
  }
  throw new WorkbenchError("CONFLICT", `The ${label} changed while it was being removed; it was left in place.`);
}

/**
 * {@link acquireLock}, waiting up to `waitMs` while a live holder has the lock: applies of two
 * different proposals then follow each other instead of one failing. A lock that looks stale is
 * refused at once (waiting would not help, and it is never broken silently).
 */
export async function acquireLockWaiting(pfs: ProjectFs, rel: string, info: Parameters<typeof acquireLock>[2] & { waitMs: number }): Promise<HeldLock> {
  const until = Date.now() + info.waitMs;
  for (;;) {
    try {
      return acquireLock(pfs, rel, info);
    } catch (e) {
      const status = (e as WorkbenchError).code === "CONFLICT" ? ((e as WorkbenchError).details as { lock?: LockStatus | null } | undefined)?.lock : undefined;
      if (status === undefined || status?.stale || Date.now() >= until) throw e;
      await new Promise((r) => setTimeout(r, 10 + Math.floor(Math.random() * 20)));
    }
  }
}
