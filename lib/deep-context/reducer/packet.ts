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
import path from "node:path";
import { isWorkbenchError } from "../../core/errors";
import type { ProjectFs } from "../../core/project-fs";
import { refusalOf } from "../../core/fs/refusal";
import type { FileWarning } from "../../core/warnings";
import { parseBoundedJson } from "../bounded-json";
import { type Entry, type Place, childOf, listEntries, probe } from "../place";
import { compareNumericNames } from "../text";

export interface PacketPaths {
  contextDir: string;
  configPath: string;
  stateLogPath: string;
  registryPath: string;
  dashboardPath: string;
  seatDir: string;
  deltaDir: string;
}

const FILES = {
  configPath: "deep-context-config.json",
  stateLogPath: "deep-context-state.jsonl",
  registryPath: "findings-registry.json",
  dashboardPath: "deep-context-dashboard.md",
  seatDir: "seats",
  deltaDir: "deltas",
} as const;

/** The packet's files under `contextDir`, joined with `join` (path.join for shown paths, path.posix.join for project-relative ones). */
export function packetPaths(contextDir: string, join: (...parts: string[]) => string = path.join): PacketPaths {
  const out = { contextDir } as PacketPaths;
  for (const [key, name] of Object.entries(FILES) as [keyof typeof FILES, string][]) out[key] = join(contextDir, name);
  return out;
}

/** Says what a packet file that could not be read was, and why (the reducer goes on without it). */
export type PacketWarn = (w: FileWarning) => void;

/**
 * The config as the reference reads it: any JSON value, or `{}` when missing or unparsable.
 * A file the file layer refuses (a link out of the project, a named pipe, too large) or one
 * nested deeper than MAX_NESTING is `{}` too, with a warning.
 */
export function readConfig(pfs: ProjectFs, rel: string, warn: PacketWarn = () => undefined): unknown {
  let text: string;
  try {
    text = pfs.readBytesSync(rel, { kind: "json" }).toString("utf8");
  } catch (e) {
    if (!isWorkbenchError(e) || e.code === "NOT_FOUND") return {};
    warn({ relPath: rel, code: refusalOf(e) ?? "unreadable", message: `${e.message} The config is read as {}.` });
    return {};
  }
  const parsed = parseBoundedJson(text);
  if (parsed.ok) return parsed.value;
  if (parsed.tooDeep) warn({ relPath: rel, code: "too_deep", message: `${rel}: ${parsed.error}; the config is read as {}.` });
  return {};
}

export type SeatLayouts = "both" | "reference";

export interface SeatFileRef {
  /** Seat label: the file name without `.json` (so `x.raw.json` is seat `x.raw`). */
  label: string;
  /** Relative to the project root. */
  rel: string;
  /** The name the file has (or would have) in `seats/iter-NNN/`: the sort key. */
  sortName: string;
  layout: "iteration-first" | "label-first";
  /** A folder named like a seat file (a failed seat, as in the reference), or an entry the file layer refused. */
  entry: Entry["kind"];
  refusal?: FileWarning;
}

export interface SeatIteration {
  /** The directory name, `iter-NNN`. */
  dirName: string;
  /** `Number(NNN)`. */
  iteration: number;
  files: SeatFileRef[];
}

const ITER_DIR = /^iter-\d+$/;

/**
 * The entries of a folder the reference lists with readdirSync: a file there fails the same
 * way (ENOTDIR, with the path it shows), so the reducer fails as the reference does.
 */
function entriesOf(pfs: ProjectFs, dir: Place): Entry[] {
  const what = probe(pfs, dir.rel);
  if (what.kind === "file") throw new Error(`ENOTDIR: not a directory, scandir '${dir.abs}'`);
  return what.kind === "dir" ? listEntries(pfs, dir.rel) : [];
}

function seatRef(label: string, rel: string, sortName: string, layout: SeatFileRef["layout"], e: Entry): SeatFileRef {
  const ref: SeatFileRef = { label, rel, sortName, layout, entry: e.kind };
  if (e.refusal) ref.refusal = e.refusal;
  return ref;
}

/**
 * The seat files by iteration directory, in reading order: directories by name (numeric
 * collation), files by name likewise; label-first files after iteration-first ones of the
 * same sort name. An `iter-NNN` entry of `seats/` that is a file makes this throw, as it
 * makes the reference fail. Entries the file layer refused are listed (they are failed
 * seats), never read.
 */
export function listSeatIterations(pfs: ProjectFs, seatDir: Place, layouts: SeatLayouts = "both"): SeatIteration[] {
  if (probe(pfs, seatDir.rel).kind === "missing") return [];
  const entries = entriesOf(pfs, seatDir);
  const byName = new Map<string, SeatFileRef[]>();
  const iterEntries = entries.filter((e) => ITER_DIR.test(e.name)).sort((a, b) => compareNumericNames(a.name, b.name));
  for (const it of iterEntries) {
    const dir = childOf(seatDir, it.name);
    const files: SeatFileRef[] = [];
    for (const e of entriesOf(pfs, dir)) {
      if (!e.name.endsWith(".json")) continue;
      files.push(seatRef(e.name.replace(/\.json$/, ""), childOf(dir, e.name).rel, e.name, "iteration-first", e));
    }
    byName.set(it.name, files);
  }
  if (layouts === "both") {
    for (const labelEntry of entries.filter((e) => !ITER_DIR.test(e.name) && e.kind === "dir")) {
      const label = labelEntry.name;
      const labelDir = childOf(seatDir, label);
      for (const it of entriesOf(pfs, labelDir).filter((e) => ITER_DIR.test(e.name) && e.kind === "dir")) {
        const dir = childOf(labelDir, it.name);
        let list = byName.get(it.name);
        if (!list) byName.set(it.name, (list = []));
        for (const e of entriesOf(pfs, dir)
          .filter((f) => f.name.endsWith(".json"))
          .sort((a, b) => compareNumericNames(a.name, b.name))) {
          const seat = e.name.endsWith(".raw.json") ? `${label}.raw` : label;
          list.push(seatRef(seat, childOf(dir, e.name).rel, `${seat}.json`, "label-first", e));
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
export function listDeltaFiles(pfs: ProjectFs, deltaDir: string): { iteration: number; rel: string }[] {
  return listEntries(pfs, deltaDir)
    .filter((e) => e.kind !== "dir" && /^iter-\d+\.jsonl$/.test(e.name))
    .sort((a, b) => compareNumericNames(a.name, b.name))
    .map((e) => ({ iteration: Number(/iter-(\d+)/.exec(e.name)![1]), rel: path.posix.join(deltaDir, e.name) }));
}
