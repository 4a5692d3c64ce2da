import { createRequire } from "node:module";
import type { MessagePort, Worker } from "node:worker_threads";
import { type DirListing, listDirs, type ListRequest } from "./dir-listing";

/**
 * A second thread that lists folders while the walk's own thread lists others.
 *
 * A large walk is bound by readdir and stat system calls (about 18 and 7 µs each on the
 * project's machines; a 23,000-file project costs 11,000 of one and 23,000 of the other);
 * two threads make them on two cores. The walk stays synchronous: it hands over part of
 * the tree, walks the rest, then blocks (Atomics.wait) until the worker has posted, and takes
 * the reply off the port without the event loop (receiveMessageOnPort). So no index job can
 * interleave with a half-done listing, and callers keep their simple synchronous walk.
 *
 * The worker runs `listDirs`'s own source text, so there is one lister, not a copy for each
 * thread, and nothing to bundle or locate on disk. One worker serves the whole process and
 * never keeps it alive.
 */

/** Longer than any listing takes; past it the worker is dropped and the walk lists alone. */
const REPLY_TIMEOUT_MS = 30_000;
/**
 * An idle worker is ended after this long: its heap would otherwise stay in the process's
 * memory through the rest of an index job. An index lists its areas back to back, so they
 * share one worker; a later walk starts a new one (off this thread, while it walks its half).
 */
const IDLE_MS = 1_000;
let idleTimer: NodeJS.Timeout | null = null;

interface Channel {
  worker: Worker;
  port: MessagePort;
  /** [0]: replies posted and not yet taken. */
  flag: Int32Array;
}

let channel: Channel | null = null;
let failed = false;
let seq = 0;
/** Folders listed by the worker and taken by walks (observability and tests). */
let taken = 0;

/**
 * node:worker_threads, loaded by the first walk that shares its work rather than by every
 * module that can reach ProjectFs: it is a twentieth of a `workbench load-context` start.
 */
let threadsModule: typeof import("node:worker_threads") | undefined;
const threads = () => (threadsModule ??= createRequire(import.meta.url)("node:worker_threads") as typeof import("node:worker_threads"));

function workerSource(): string {
  return `"use strict";
const { workerData } = require("node:worker_threads");
const fs = require("node:fs");
const listDirs = (${listDirs.toString()});
const { port, flag } = workerData;
port.on("message", (m) => {
  let reply;
  try {
    reply = { id: m.id, listings: listDirs(fs, m.requests, m.skip, m.maxDepth, m.maxEntries, true) };
  } catch (e) {
    reply = { id: m.id, error: String(e && e.message || e) };
  }
  port.postMessage(reply);
  Atomics.add(flag, 0, 1);
  Atomics.notify(flag, 0);
});`;
}

function open(): Channel | null {
  if (channel || failed) return channel;
  try {
    const { MessageChannel, Worker } = threads();
    const { port1, port2 } = new MessageChannel();
    const flag = new Int32Array(new SharedArrayBuffer(4));
    const worker = new Worker(workerSource(), { eval: true, workerData: { port: port2, flag }, transferList: [port2], resourceLimits: { maxOldGenerationSizeMb: 256 } });
    worker.unref();
    port1.unref();
    // A worker that dies is replaced by the walk's own listing, never by a crash.
    worker.on("error", (e) => {
      console.warn("[workbench] folder-listing worker stopped; walks list on one thread:", e.message);
      close();
    });
    channel = { worker, port: port1, flag };
  } catch (e) {
    failed = true;
    console.warn("[workbench] folder-listing worker could not start; walks list on one thread:", (e as Error).message);
  }
  return channel;
}

function close(): void {
  const c = channel;
  channel = null;
  if (!c) return;
  c.port.close();
  void c.worker.terminate();
}

export interface PendingListing {
  /** Blocks until the worker's listings are in; an empty map when it could not list them. */
  take(): Map<string, DirListing>;
}

/**
 * Starts listing `requests` (and everything below them) on the worker. Returns null when no
 * worker can run, and the caller lists them itself.
 */
export function listElsewhere(requests: ListRequest[], skip: string[], maxDepth: number, maxEntries: number): PendingListing | null {
  const c = open();
  if (!c) return null;
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = null;
  const id = ++seq;
  c.port.postMessage({ id, requests, skip, maxDepth, maxEntries });
  let result: Map<string, DirListing> | null = null;
  return {
    take() {
      if (result) return result;
      result = new Map();
      const deadline = Date.now() + REPLY_TIMEOUT_MS;
      for (;;) {
        const posted = Atomics.load(c.flag, 0);
        if (posted === 0) {
          const left = deadline - Date.now();
          if (left <= 0 || Atomics.wait(c.flag, 0, 0, left) === "timed-out") {
            console.warn("[workbench] folder-listing worker did not answer; walks list on one thread from now on.");
            if (channel === c) close();
            return result;
          }
          continue;
        }
        const msg = threads().receiveMessageOnPort(c.port);
        if (!msg) continue;
        Atomics.sub(c.flag, 0, 1);
        const reply = msg.message as { id: number; listings?: DirListing[]; error?: string };
        // A reply to an abandoned request (its walk timed out) is dropped.
        if (reply.id !== id) continue;
        if (reply.listings) for (const l of reply.listings) result.set(l.real, l);
        taken += result.size;
        idleTimer = setTimeout(() => {
          if (channel === c) close();
        }, IDLE_MS);
        idleTimer.unref();
        return result;
      }
    },
  };
}

/** Whether a worker is up (observability and tests). */
export function listingWorkerRunning(): boolean {
  return channel !== null;
}

/** How many folder listings walks have taken from the worker in this process. */
export function workerListingsTaken(): number {
  return taken;
}

/** Ends the worker (tests, shutdown); the next large walk starts a new one. */
export function stopListingWorker(): void {
  close();
  failed = false;
}
