/**
 * "The run's executors": one definition for the run list and the run page (FORMATS.md §1).
 * An executor is a seat label the run names anywhere it says who swept:
 * - the pool the config lists (`fanout.executors[].label`, with `kind` and `model`);
 * - the seats the state log says were dispatched (`sweep_settled` seatsSucceeded and
 *   seatsFailed, every session and generation of the lineage the log holds);
 * - the seats whose files are in the packet (`seats/iter-NNN/{label}.json`, or the
 *   `seats/{label}/iter-NNN/` layout; `{label}.raw.json` is raw output of seat `{label}`).
 * The reducer's `executorPool` is narrower on purpose (seat files that parsed): the run page
 * shows it beside these as the executors whose findings the packet keeps.
 */
import type { ProjectFs } from "../../core/project-fs";
import { listEntries } from "../place";

export interface RunExecutor {
  label: string;
  kind: string | null;
  model: string | null;
  /** Listed in the config's pool. */
  configured: boolean;
  /** sweep_settled events naming it, and of those the ones where it failed. */
  sweeps: number;
  failedSweeps: number;
  /** Iterations with a seat file of it in the packet. */
  seatFileIterations: number;
}

export interface SeatFileLabel {
  label: string;
  iteration: number;
}

const ITER_DIR = /^iter-(\d+)$/;
const labelOf = (file: string) => file.replace(/\.json$/, "").replace(/\.raw$/, "");

/**
 * The seat files of a packet as (label, iteration); a packet without seats/ has none. A folder
 * the file layer refuses to list counts as empty (the file layer reports it).
 */
export function seatFileLabels(pfs: ProjectFs, packetRel: string): SeatFileLabel[] {
  const seats = `${packetRel}/seats`;
  const list = (rel: string) => {
    try {
      return pfs.isDirSync(rel) ? listEntries(pfs, rel) : [];
    } catch {
      return [];
    }
  };
  const out: SeatFileLabel[] = [];
  const filesIn = (rel: string) => list(rel).filter((e) => e.kind !== "dir" && e.name.endsWith(".json"));
  for (const e of list(seats)) {
    if (e.kind !== "dir") continue;
    const iter = ITER_DIR.exec(e.name);
    if (iter) {
      for (const f of filesIn(`${seats}/${e.name}`)) out.push({ label: labelOf(f.name), iteration: Number(iter[1]) });
      continue;
    }
    for (const it of list(`${seats}/${e.name}`)) {
      const m = it.kind === "dir" ? ITER_DIR.exec(it.name) : null;
      if (m && filesIn(`${seats}/${e.name}/${it.name}`).length) out.push({ label: e.name, iteration: Number(m[1]) });
    }
  }
  return out;
}

const text = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim() : null);
const labels = (v: unknown) => (Array.isArray(v) ? v.filter((s): s is string => typeof s === "string" && s.trim() !== "").map((s) => s.trim()) : []);

/**
 * The run's executors, sorted by label. `config`: deep-context-config.json as read (anything);
 * `events`: the state log's event records; `seatFiles`: see seatFileLabels.
 */
export function runExecutors(sources: { config: unknown; events: readonly Record<string, unknown>[]; seatFiles: readonly SeatFileLabel[] }): RunExecutor[] {
  const byLabel = new Map<string, RunExecutor>();
  const at = (label: string) => {
    let e = byLabel.get(label);
    if (!e) byLabel.set(label, (e = { label, kind: null, model: null, configured: false, sweeps: 0, failedSweeps: 0, seatFileIterations: 0 }));
    return e;
  };
  const fanout = sources.config && typeof sources.config === "object" ? (sources.config as { fanout?: unknown }).fanout : undefined;
  const pool = fanout && typeof fanout === "object" ? (fanout as { executors?: unknown }).executors : undefined;
  for (const x of Array.isArray(pool) ? pool : []) {
    const label = x && typeof x === "object" ? text((x as { label?: unknown }).label) : null;
    if (!label) continue;
    const e = at(label);
    e.configured = true;
    e.kind ??= text((x as { kind?: unknown }).kind);
    e.model ??= text((x as { model?: unknown }).model);
  }
  for (const ev of sources.events) {
    if (ev.event !== "sweep_settled") continue;
    const failed = new Set(labels(ev.seatsFailed));
    for (const l of new Set([...labels(ev.seatsSucceeded), ...failed])) {
      const e = at(l);
      e.sweeps++;
      if (failed.has(l)) e.failedSweeps++;
    }
  }
  const seen = new Set<string>();
  for (const f of sources.seatFiles) {
    const key = `${f.label}\u0000${f.iteration}`;
    if (seen.has(key)) continue;
    seen.add(key);
    at(f.label).seatFileIterations++;
  }
  return [...byLabel.values()].sort((a, b) => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
}
