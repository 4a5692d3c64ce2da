/**
 * Several files of one folder replaced as one write (the reducer's registry and dashboard):
 * all before or all after, never some of each, even when the process is killed between two
 * renames. Each file is first a fsynced temp file (prepareFileAtomic); then a commit record
 * naming the temps is written and fsynced in the folder, and only then are the temps renamed.
 * A writer killed after its record leaves the record: recoverCommits, run by the next writer of
 * the folder before anything else, finishes the renames. A record cut short was written before
 * any rename, so it is only removed. Temps a dead process left behind, with or without a
 * record, are removed there too, so killed runs leave no litter in the repository.
 *
 * Renames are durable where the platform allows: the record is fsynced, and the folder after
 * it and after the renames, so after a power loss the renames are never found without the record.
 */
import fs from "node:fs";
import path from "node:path";
import { type PreparedWrite, syncDir } from "./atomic-write";
import { processAlive } from "../process-alive";

const RECORD_PREFIX = ".workbench-commit.";
/** A record is a line of JSON naming a handful of files: anything longer was not written by us. */
const MAX_RECORD_BYTES = 4096;

let recordSeq = 0;

/** Renames every prepared write in `dir` over its file, as one; on failure the remaining temps are removed. */
export function commitTogether(dir: string, writes: PreparedWrite[]): void {
  for (const w of writes) {
    if (path.dirname(w.tempPath) !== dir || path.dirname(w.filePath) !== dir) throw new Error(`commitTogether: ${w.filePath} is not in ${dir}`);
  }
  const record = path.join(dir, `${RECORD_PREFIX}${process.pid}.${Date.now().toString(36)}.${(++recordSeq).toString(36)}`);
  try {
    const text = `${JSON.stringify({ renames: writes.map((w) => [path.basename(w.tempPath), path.basename(w.filePath)]) })}\n`;
    const fd = fs.openSync(record, "wx");
    try {
      fs.writeSync(fd, text);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    syncDir(dir);
  } catch (error) {
    for (const w of writes) w.abort();
    fs.rmSync(record, { force: true });
    throw error;
  }
  let i = 0;
  try {
    for (; i < writes.length; i++) writes[i]!.commit({ syncDir: false });
  } finally {
    // A failed rename: the others are not made (the write failed), and their temps go.
    for (let j = i + 1; j < writes.length; j++) writes[j]!.abort();
    syncDir(dir);
    fs.rmSync(record, { force: true });
  }
}

const isRegularFile = (p: string): boolean => {
  try {
    return fs.lstatSync(p).isFile();
  } catch {
    return false;
  }
};

const exists = (p: string): boolean => {
  try {
    fs.lstatSync(p);
    return true;
  } catch {
    return false;
  }
};

/** The renames a record names, when it is whole and names only temps of `files` (folder contents are not trusted). */
function readRecord(file: string, files: readonly string[]): [string, string][] | null {
  try {
    if (!isRegularFile(file) || fs.lstatSync(file).size > MAX_RECORD_BYTES) return null;
    const text = fs.readFileSync(file, "utf8");
    if (!text.endsWith("\n")) return null;
    const renames = (JSON.parse(text) as { renames?: unknown }).renames;
    if (!Array.isArray(renames)) return null;
    const out: [string, string][] = [];
    for (const pair of renames) {
      if (!Array.isArray(pair) || pair.length !== 2) return null;
      const [temp, target] = pair as unknown[];
      if (typeof temp !== "string" || typeof target !== "string" || !files.includes(target)) return null;
      if (!temp.startsWith(`${target}.tmp.`) || temp.includes("/") || temp.includes("\\")) return null;
      out.push([temp, target]);
    }
    return out;
  } catch {
    return null;
  }
}

/**
 * Finishes the commits of writers of `dir` that died between their record and their last
 * rename, then removes the temps of `files` that dead processes left. Writers still running
 * (their process id is alive) are left alone. A target that is not a plain file (a link
 * planted in the repository) is never replaced: that rename is skipped.
 */
export function recoverCommits(dir: string, files: readonly string[]): void {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  const pidOf = (name: string, prefix: string): number | null => {
    const m = /^(\d+)\./.exec(name.slice(prefix.length));
    return m ? Number(m[1]) : null;
  };
  let renamed = false;
  for (const name of names) {
    if (!name.startsWith(RECORD_PREFIX)) continue;
    const pid = pidOf(name, RECORD_PREFIX);
    if (pid === null || processAlive(pid)) continue;
    const record = path.join(dir, name);
    if (!isRegularFile(record)) continue;
    for (const [temp, target] of readRecord(record, files) ?? []) {
      const from = path.join(dir, temp);
      const to = path.join(dir, target);
      if (!isRegularFile(from)) continue;
      if (!isRegularFile(to) && exists(to)) continue;
      fs.renameSync(from, to);
      renamed = true;
    }
    if (renamed) syncDir(dir);
    fs.rmSync(record, { force: true });
  }
  for (const name of names) {
    const file = files.find((f) => name.startsWith(`${f}.tmp.`));
    if (file === undefined) continue;
    const pid = pidOf(name, `${file}.tmp.`);
    if (pid !== null && !processAlive(pid) && isRegularFile(path.join(dir, name))) fs.rmSync(path.join(dir, name), { force: true });
  }
}
