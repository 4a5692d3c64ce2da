import { parseEnvValue, readEnv } from "../core/env";
import { activeJob } from "../db/repositories/jobs";
import { listRemoteProjects } from "../db/repositories/projects";
import { fetchProject } from "./remote-projects";

const STOP_GRACE_MS = 5000;

/** WORKBENCH_FETCH_INTERVAL in seconds (300 when unset); 0 turns scheduled fetching off. */
export function fetchIntervalSeconds(raw?: string): number {
  return raw === undefined ? readEnv("WORKBENCH_FETCH_INTERVAL") : parseEnvValue("WORKBENCH_FETCH_INTERVAL", raw);
}

export interface PassOutcome {
  projectId: string;
  changed?: boolean;
  skipped?: "indexing";
  error?: string;
}

export interface FetchSchedulerOptions {
  intervalMs: number;
  /** Injectable for tests; by default the real fetch (which records its outcome on the project). */
  fetchOne?: (projectId: string) => Promise<{ changed: boolean }>;
  listProjects?: () => Promise<{ id: string }[]>;
  isIndexing?: (projectId: string) => Promise<boolean>;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
  log?: (message: string) => void;
}

export interface FetchScheduler {
  /** One pass over every remote project, one at a time; never throws. */
  runOnce(): Promise<PassOutcome[]>;
  stop(): Promise<void>;
}

/**
 * Fetches every remote project in turn, then waits `intervalMs` before the next pass (a
 * timeout chain, so a slow pass never overlaps the next). Failures are recorded on the
 * project and logged; they never reach the server process.
 */
export function startFetchScheduler(opts: FetchSchedulerOptions): FetchScheduler {
  const fetchOne = opts.fetchOne ?? ((id: string) => fetchProject(id));
  const list = opts.listProjects ?? listRemoteProjects;
  const isIndexing = opts.isIndexing ?? (async (id: string) => (await activeJob(id)) !== null);
  const log = opts.log ?? ((m: string) => void process.stderr.write(`${m}\n`));
  const setTimer = opts.setTimer ?? ((fn: () => void, ms: number) => setTimeout(fn, ms).unref());
  const clearTimer = opts.clearTimer ?? ((h: unknown) => clearTimeout(h as NodeJS.Timeout));
  let stopped = false;
  let handle: unknown = null;
  let current: Promise<unknown> = Promise.resolve();

  async function runOnce(): Promise<PassOutcome[]> {
    const out: PassOutcome[] = [];
    let projects: { id: string }[] = [];
    try {
      projects = await list();
    } catch (e) {
      log(`[workbench] scheduled fetch: listing projects failed: ${e instanceof Error ? e.message : String(e)}`);
    }
    for (const { id } of projects) {
      if (stopped) break;
      try {
        // An index job in flight (perhaps started by the dashboard) would race the reset.
        if (await isIndexing(id)) {
          out.push({ projectId: id, skipped: "indexing" });
          continue;
        }
        const { changed } = await fetchOne(id);
        out.push({ projectId: id, changed });
      } catch (e) {
        const error = e instanceof Error ? e.message : String(e);
        log(`[workbench] scheduled fetch of ${id}: ${error}`);
        out.push({ projectId: id, error });
      }
    }
    return out;
  }

  const tick = () => {
    handle = null;
    current = runOnce().finally(() => {
      if (!stopped) handle = setTimer(tick, opts.intervalMs);
    });
  };
  handle = setTimer(tick, opts.intervalMs);

  return {
    runOnce,
    async stop() {
      stopped = true;
      if (handle !== null) clearTimer(handle);
      // A hung remote must not hold up shutdown; git's own timeout ends it later.
      let timer: NodeJS.Timeout | undefined;
      const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, STOP_GRACE_MS).unref()));
      await Promise.race([current.catch(() => undefined), grace]);
      clearTimeout(timer);
    },
  };
}

/** The scheduler `workbench serve` runs, or null when WORKBENCH_FETCH_INTERVAL is 0. */
export function startFetchSchedulerFromEnv(): FetchScheduler | null {
  const seconds = fetchIntervalSeconds();
  return seconds === 0 ? null : startFetchScheduler({ intervalMs: seconds * 1000 });
}
