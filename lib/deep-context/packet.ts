/**
 * The files of one deep-context packet (FORMATS.md §1.1) and the order the reducer reads
 * them in.
 *
 * Seats come in two layouts:
 * - `seats/iter-NNN/{label}.json` — what the loop writes and the reference reducer reads;
 * - `seats/{label}/iter-NNN/*.json` — what loop_protocol.md and the README describe. The
 *   reference ignores it; we read it too, as if each file were `seats/iter-NNN/{label}.json`
 *   (`*.raw.json` as `{label}.raw.json`), unless `layouts: "reference"` is asked for.
 *
 * `{label}.raw.json` files are ordinary seat files to the reference: seat `{label}.raw`,
 * which fails (it holds a CLI's raw output, not findings) unless it happens to hold a
 * findings array.
 */
import fs from "node:fs";
import path from "node:path";
import { compareNumericNames } from "./text";

export interface PacketPaths {
  contextDir: string;
  configPath: string;
  stateLogPath: string;
  registryPath: string;
  dashboardPath: string;
  seatDir: string;
  deltaDir: string;
}

export function packetPaths(contextDir: string): PacketPaths {
  return {
    contextDir,
    configPath: path.join(contextDir, "deep-context-config.json"),
    stateLogPath: path.join(contextDir, "deep-context-state.jsonl"),
    registryPath: path.join(contextDir, "findings-registry.json"),
    dashboardPath: path.join(contextDir, "deep-context-dashboard.md"),
    seatDir: path.join(contextDir, "seats"),
    deltaDir: path.join(contextDir, "deltas"),
  };
}

/** The config as the reference reads it: any JSON value, or `{}` when missing or unparsable. */
export function readConfig(configPath: string): unknown {
  try {
    return JSON.parse(fs.readFileSync(configPath, "utf8")) as unknown;
  } catch {
    return {};
  }
}

export type SeatLayouts = "both" | "reference";

export interface SeatFileRef {
  /** Seat label: the file name without `.json` (so `x.raw.json` is seat `x.raw`). */
  label: string;
  filePath: string;
  /** The name the file has (or would have) in `seats/iter-NNN/`: the sort key. */
  sortName: string;
  layout: "iteration-first" | "label-first";
}

export interface SeatIteration {
  /** The directory name, `iter-NNN`. */
  dirName: string;
  /** `Number(NNN)`. */
  iteration: number;
  files: SeatFileRef[];
}

const ITER_DIR = /^iter-\d+$/;

function isDir(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The seat files by iteration directory, in reading order: directories by name (numeric
 * collation), files by name likewise; label-first files after iteration-first ones of the
 * same sort name. An `iter-NNN` entry of `seats/` that is not a readable directory makes
 * this throw, as it makes the reference fail.
 */
export function listSeatIterations(seatDir: string, layouts: SeatLayouts = "both"): SeatIteration[] {
  if (!fs.existsSync(seatDir)) return [];
  const entries = fs.readdirSync(seatDir);
  const byName = new Map<string, SeatFileRef[]>();
  const iterNames = entries.filter((n) => ITER_DIR.test(n)).sort(compareNumericNames);
  for (const dirName of iterNames) {
    const dir = path.join(seatDir, dirName);
    const files: SeatFileRef[] = [];
    if (fs.existsSync(dir)) {
      for (const name of fs.readdirSync(dir).filter((n) => n.endsWith(".json"))) {
        files.push({ label: name.replace(/\.json$/, ""), filePath: path.join(dir, name), sortName: name, layout: "iteration-first" });
      }
    }
    byName.set(dirName, files);
  }
  if (layouts === "both") {
    const labels = entries.filter((n) => !ITER_DIR.test(n) && isDir(path.join(seatDir, n)));
    for (const label of labels) {
      const labelDir = path.join(seatDir, label);
      for (const dirName of fs.readdirSync(labelDir).filter((n) => ITER_DIR.test(n))) {
        const dir = path.join(labelDir, dirName);
        if (!isDir(dir)) continue;
        let list = byName.get(dirName);
        if (!list) byName.set(dirName, (list = []));
        for (const name of fs.readdirSync(dir).filter((n) => n.endsWith(".json")).sort(compareNumericNames)) {
          const seat = name.endsWith(".raw.json") ? `${label}.raw` : label;
          list.push({ label: seat, filePath: path.join(dir, name), sortName: `${seat}.json`, layout: "label-first" });
        }
      }
    }
  }
  const names = [...byName.keys()].sort(compareNumericNames);
  return names.map((dirName) => ({
    dirName,
    iteration: Number(/iter-(\d+)/.exec(dirName)![1]),
    // Array.prototype.sort is stable: iteration-first files stay ahead of label-first ties.
    files: byName.get(dirName)!.sort((a, b) => compareNumericNames(a.sortName, b.sortName)),
  }));
}

/** `deltas/iter-NNN.jsonl` files (host-written per-iteration records), by iteration. Not read by the reducer. */
export function listDeltaFiles(deltaDir: string): { iteration: number; filePath: string }[] {
  if (!fs.existsSync(deltaDir)) return [];
  return fs
    .readdirSync(deltaDir)
    .filter((n) => /^iter-\d+\.jsonl$/.test(n))
    .sort(compareNumericNames)
    .map((n) => ({ iteration: Number(/iter-(\d+)/.exec(n)![1]), filePath: path.join(deltaDir, n) }));
}
