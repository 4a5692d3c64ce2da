import fs from "node:fs";
import path from "node:path";
import { WorkbenchError } from "./errors";
import { type ChunkSink, type PreparedWrite, prepareFileAtomic } from "./fs/atomic-write";
import { withDeadline } from "./fs/deadline";
import { decodeUtf8, looksBinary } from "./fs/decode";
import { READ_CAPS, READ_TIMEOUT_MS, type ReadKind } from "./fs/limits";
import { type FsRefusal, describeSpecial, refusalError, shortPath } from "./fs/refusal";
import type { ListedFile, Seen } from "./fs/freshness";
import { walkTree, type WalkOptions } from "./fs/walk";
import type { FileWarning, WarningSink } from "./warnings";

/** Files above this size are not read unless the reader names a larger kind. */
export const MAX_FILE_BYTES = READ_CAPS.json;

export interface FileEntry {
  /** Path relative to the project root, always with forward slashes. */
  relPath: string;
  size: number;
  /** Whole milliseconds: fractional parts do not survive every database round trip. */
  mtimeMs: number;
}

const posixRel = path.sep === "/" ? (rel: string) => rel : (rel: string) => rel.split(path.sep).join("/");

/** Forward-slash relative path; the form stored in the database and shown to users. */
export function toRel(root: string, abs: string): string {
  return path.relative(root, abs).split(path.sep).join("/");
}

/** How much of a file a read may take: a kind (its cap) or a byte limit. */
export type ReadLimit = number | { kind?: ReadKind; maxBytes?: number; timeoutMs?: number };

/**
 * O_NONBLOCK: opening a named pipe returns at once instead of waiting for a writer (it is
 * then refused by fstat). O_NOFOLLOW: the last component was already resolved, so a link
 * appearing there since is refused rather than followed. O_NOCTTY: a terminal device never
 * becomes ours.
 */
const OPEN_FLAGS = fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | fs.constants.O_NOFOLLOW | fs.constants.O_NOCTTY;

type Located = { ok: true; rel: string; real: string } | { ok: false; rel: string; reason: FsRefusal | "missing"; message: string };

/**
 * The one door to a project on disk. Every read, listing, walk and write of repository
 * files goes through it, so no capability can forget a rule:
 * - a path is resolved with realpath and must stay inside the root (links inside it are
 *   followed; links out, dangling links and loops are refused and reported);
 * - only regular files with a single name are opened, with a size cap per kind, a read
 *   timeout, and bytes read only up to the size seen at open (a file that grows is cut);
 * - text is UTF-8 (invalid bytes become U+FFFD and are reported), binary files are refused;
 * - walks follow each link target once, stop at a depth and entry budget, and say so;
 * - writes land only in real folders inside the root, never through a link.
 * Every refusal is recorded (`skipped`) and passed to the sink, naming the file and reason.
 */
export class ProjectFs {
  private readonly skipLog = new Map<string, FileWarning>();
  /**
   * Every path looked at since observe() (./fs/freshness.ts), with what its stat said when a
   * walk listed it (undefined: looked at otherwise; stat'ed when the record is taken); null
   * when not asked.
   */
  private observed: Map<string, Seen> | null = null;

  private constructor(
    readonly root: string,
    private sink: WarningSink | undefined,
  ) {}

  static async open(rootPath: string, opts: { onSkip?: WarningSink } = {}): Promise<ProjectFs> {
    return ProjectFs.openSync(rootPath, opts);
  }

  static openSync(rootPath: string, opts: { onSkip?: WarningSink } = {}): ProjectFs {
    const abs = path.resolve(rootPath);
    let real: string;
    let st: fs.Stats;
    try {
      real = fs.realpathSync.native(abs);
      st = fs.statSync(real);
    } catch {
      throw new WorkbenchError("NOT_FOUND", `No folder at ${abs}.`);
    }
    if (!st.isDirectory()) throw new WorkbenchError("INVALID_INPUT", `${abs} is not a folder.`);
    return new ProjectFs(real, opts.onSkip);
  }

  /** Where refusals go from now on, besides `skipped` (e.g. an index job's warning list). */
  onSkip(sink: WarningSink | undefined): void {
    this.sink = sink;
  }

  /**
   * From now on, notes every root-relative path this instance looks at: each path located
   * (read, probed, listed), each folder a walk lists and each file it returns. An index job
   * records what they look like, so the next can tell nothing changed without reading.
   */
  observe(): Map<string, Seen> {
    this.observed ??= new Map();
    return this.observed;
  }

  /** Every refusal so far, once per file and reason. */
  get skipped(): FileWarning[] {
    return [...this.skipLog.values()];
  }

  /** Records a refusal (once per file and reason) and passes it on. */
  report(relPath: string, code: FileWarning["code"], message: string): void {
    const key = `${code}\0${relPath}`;
    if (this.skipLog.has(key)) return;
    // The warning keeps the whole path; its message stays readable for a path past PATH_MAX.
    const w: FileWarning = { relPath, code, message: relPath.length > 160 ? message.split(relPath).join(shortPath(relPath)) : message };
    this.skipLog.set(key, w);
    this.sink?.(w);
  }

  /** True when a relative path stays inside the root without following links. */
  isInside(rel: string): boolean {
    const abs = path.resolve(this.root, rel);
    return abs === this.root || abs.startsWith(this.root + path.sep);
  }

  /** The root-relative form of a path given relative to the root or absolute under it; null outside. */
  relOf(p: string): string | null {
    if (p.includes("\0")) return null;
    const abs = path.resolve(this.root, p);
    if (abs !== this.root && !abs.startsWith(this.root + path.sep)) return null;
    return toRel(this.root, abs);
  }

  /** The lexical absolute path (links not resolved); UNSAFE_PATH for names that leave the root. */
  resolve(rel: string): string {
    if (rel.includes("\0") || !this.isInside(rel)) {
      throw new WorkbenchError("UNSAFE_PATH", `The path "${rel}" is outside the project.`);
    }
    return path.resolve(this.root, rel);
  }

  private inside(real: string): boolean {
    return real === this.root || real.startsWith(this.root + path.sep);
  }

  /** Resolves every link of a path and checks the result is inside the root. */
  private locate(p: string): Located {
    const rel = this.relOf(p);
    if (rel === null) return { ok: false, rel: p, reason: "outside_root", message: `${p}: outside the project; not read.` };
    if (this.observed && !this.observed.has(rel)) this.observed.set(rel, undefined);
    let real: string;
    try {
      real = fs.realpathSync.native(path.join(this.root, rel));
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "ENOTDIR") return { ok: false, rel, reason: "missing", message: `${rel}: no such file in the project.` };
      if (code === "ELOOP") return { ok: false, rel, reason: "symlink_loop", message: `${rel}: a symbolic link loop; not read.` };
      if (code === "ENAMETOOLONG") return { ok: false, rel, reason: "path_too_long", message: `${rel}: the path is longer than the system allows; not read.` };
      return { ok: false, rel, reason: "unreadable", message: `${rel}: cannot be read (${code ?? "error"}).` };
    }
    if (!this.inside(real)) return { ok: false, rel, reason: "outside_root", message: `${rel}: a link to outside the project; not read.` };
    return { ok: true, rel, real };
  }

  /** A located path, or the refusal thrown (and recorded); a missing file is NOT_FOUND, not recorded. */
  private locateOrThrow(p: string): { rel: string; real: string } {
    const loc = this.locate(p);
    if (loc.ok) return loc;
    if (loc.reason === "missing") throw new WorkbenchError("NOT_FOUND", loc.message);
    this.report(loc.rel, loc.reason, loc.message);
    throw refusalError(loc.reason, loc.message);
  }

  private statReal(p: string): { rel: string; real: string; st: fs.Stats } | null {
    const loc = this.locate(p);
    if (!loc.ok) {
      if (loc.reason !== "missing") this.report(loc.rel, loc.reason, loc.message);
      return null;
    }
    try {
      return { ...loc, st: fs.statSync(loc.real) };
    } catch {
      return null;
    }
  }

  /** The real path of `p` relative to the root ("" for the root), or null when missing or outside. */
  realRelSync(p: string): string | null {
    const loc = this.locate(p);
    return loc.ok ? toRel(this.root, loc.real) : null;
  }

  /**
   * Why `p` cannot be read as a file, in words that follow its path ("is missing", "links
   * outside the project", "is a named pipe", …), or null when it is a readable regular file.
   */
  whyNotReadable(p: string, limit: ReadLimit = {}): string | null {
    const loc = this.locate(p);
    if (!loc.ok) {
      return loc.reason === "missing"
        ? "is missing"
        : loc.reason === "outside_root"
          ? "links outside the project"
          : loc.reason === "symlink_loop"
            ? "is a symbolic link loop"
            : loc.reason === "path_too_long"
              ? "has a path longer than the system allows"
              : "cannot be read";
    }
    let st: fs.Stats;
    try {
      st = fs.statSync(loc.real);
    } catch {
      return "cannot be read";
    }
    if (!st.isFile()) return `is ${describeSpecial(st)}`;
    if (st.nlink > 1) return "is a hard link";
    if (st.size > capOf(limit)) return `is over the ${capOf(limit)}-byte limit`;
    return null;
  }

  async isDir(rel: string): Promise<boolean> {
    return this.isDirSync(rel);
  }

  isDirSync(rel: string): boolean {
    return this.statReal(rel)?.st.isDirectory() ?? false;
  }

  async isFile(rel: string): Promise<boolean> {
    return this.isFileSync(rel);
  }

  /** A regular file inside the root (named pipes, sockets and devices are not files here). */
  isFileSync(rel: string): boolean {
    return this.statReal(rel)?.st.isFile() ?? false;
  }

  async stat(rel: string): Promise<FileEntry | null> {
    return this.statSync(rel);
  }

  statSync(rel: string): FileEntry | null {
    const s = this.statReal(rel);
    if (!s || !s.st.isFile()) return null;
    return { relPath: s.rel, size: s.st.size, mtimeMs: Math.floor(s.st.mtimeMs) };
  }

  /** Names of the entries of a folder, sorted. Links out of the root, link loops and special files are left out and reported. */
  async list(rel: string): Promise<{ name: string; isDir: boolean }[]> {
    return this.listSync(rel);
  }

  listSync(rel: string): { name: string; isDir: boolean }[] {
    const dir = this.statReal(rel);
    if (!dir || !dir.st.isDirectory()) return [];
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir.real, { withFileTypes: true });
    } catch (e) {
      this.report(dir.rel, "unreadable", `${dir.rel || "."}: the folder cannot be listed (${(e as NodeJS.ErrnoException).code ?? "error"}).`);
      return [];
    }
    const out: { name: string; isDir: boolean }[] = [];
    for (const e of entries) {
      const childRel = dir.rel ? `${dir.rel}/${e.name}` : e.name;
      if (e.isSymbolicLink()) {
        const loc = this.locate(childRel);
        if (!loc.ok) {
          if (loc.reason === "missing") this.report(childRel, "unreadable", `${childRel}: a link to nothing; skipped.`);
          else this.report(childRel, loc.reason, loc.message);
          continue;
        }
        let st: fs.Stats;
        try {
          st = fs.statSync(loc.real);
        } catch {
          continue;
        }
        const target = { real: loc.real, st };
        if (target.st.isDirectory()) {
          // A link to the folder itself or to one above it would make every walk endless.
          if (dir.real === target.real || dir.real.startsWith(target.real + path.sep)) {
            this.report(childRel, "symlink_loop", `${childRel}: a link back to ${toRel(this.root, target.real) || "the project root"} (a loop); not followed.`);
            continue;
          }
          out.push({ name: e.name, isDir: true });
        } else if (target.st.isFile()) out.push({ name: e.name, isDir: false });
        else this.report(childRel, "not_regular", `${childRel}: a link to ${describeSpecial(target.st)}; not read.`);
      } else if (e.isDirectory() || e.isFile()) {
        out.push({ name: e.name, isDir: e.isDirectory() });
      } else {
        this.report(childRel, "not_regular", `${childRel}: ${describeSpecial(e)}; not read.`);
      }
    }
    return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /**
   * Every regular file below a folder (stat only), skipping .git and node_modules. Links
   * inside the root are followed once per target; links out, loops, special files, hard
   * links, folders past the depth limit and entries past the budget are reported.
   */
  async walk(rel: string, opts: WalkOptions = {}): Promise<FileEntry[]> {
    return this.walkSync(rel, opts);
  }

  walkSync(rel: string, opts: WalkOptions = {}): FileEntry[] {
    const start = this.statReal(rel);
    if (!start || !start.st.isDirectory()) return [];
    const observed = this.observed;
    const root = this.root;
    // Plain slices: the walk reports tens of thousands of entries, and path.relative costs more than they do.
    const noted = observed
      ? {
          onFolder: (real: string) => {
            const rel = real === root ? "" : posixRel(real.slice(root.length + 1));
            if (!observed.has(rel)) observed.set(rel, undefined);
          },
          onFile: (rel: string, st: ListedFile) => observed.set(rel, st),
        }
      : {};
    return walkTree({ root: this.root, startRel: start.rel, startReal: start.real, report: (r, c, m) => this.report(r, c, m), ...noted }, opts);
  }

  /** Opens a regular file for reading after every check; the caller reads up to `size` and closes `fd`. */
  openRegularSync(p: string, limit: ReadLimit = {}): { rel: string; fd: number; size: number; mtimeMs: number } {
    const { rel, real } = this.locateOrThrow(p);
    let fd: number;
    try {
      fd = fs.openSync(real, OPEN_FLAGS);
    } catch (e) {
      throw this.openError(rel, e);
    }
    try {
      const st = fs.fstatSync(fd);
      this.checkOpened(rel, st, limit);
      return { rel, fd, size: st.size, mtimeMs: Math.floor(st.mtimeMs) };
    } catch (e) {
      fs.closeSync(fd);
      throw e;
    }
  }

  /** The bytes of a regular file, up to the size it had when opened. */
  readBytesSync(p: string, limit: ReadLimit = {}): Buffer {
    const f = this.openRegularSync(p, limit);
    try {
      const buf = Buffer.allocUnsafe(f.size);
      let n = 0;
      while (n < f.size) {
        const got = fs.readSync(f.fd, buf, n, f.size - n, n);
        if (got === 0) break;
        n += got;
      }
      return n === f.size ? buf : buf.subarray(0, n);
    } catch (e) {
      throw this.readError(f.rel, e);
    } finally {
      fs.closeSync(f.fd);
    }
  }

  async readBytes(p: string, limit: ReadLimit = {}): Promise<Buffer> {
    const { rel, real } = this.locateOrThrow(p);
    let fh: fs.promises.FileHandle;
    try {
      fh = await fs.promises.open(real, OPEN_FLAGS);
    } catch (e) {
      throw this.openError(rel, e);
    }
    const timeoutMs = typeof limit === "number" ? READ_TIMEOUT_MS : (limit.timeoutMs ?? READ_TIMEOUT_MS);
    const reading = withDeadline(
      async (deadline) => {
        const st = await fh.stat();
        deadline.progress();
        this.checkOpened(rel, st, limit);
        const buf = Buffer.allocUnsafe(st.size);
        let n = 0;
        while (n < st.size) {
          const { bytesRead } = await fh.read(buf, n, st.size - n, n);
          deadline.progress();
          if (bytesRead === 0) break;
          n += bytesRead;
        }
        return n === st.size ? buf : buf.subarray(0, n);
      },
      timeoutMs,
      () => {
        const message = `${rel}: reading took longer than ${Math.round(timeoutMs / 1000)} s; abandoned.`;
        this.report(rel, "read_timeout", message);
        return refusalError("read_timeout", message);
      },
    );
    try {
      return await reading;
    } catch (e) {
      if (e instanceof WorkbenchError) throw e;
      throw this.readError(rel, e);
    } finally {
      // An abandoned read keeps its handle until the kernel answers; close it then.
      void fh.close().catch(() => {});
    }
  }

  /** UTF-8 text of a regular file: TOO_LARGE above the limit, UNREADABLE (binary, special, …) otherwise refused. */
  async readText(p: string, limit: ReadLimit = {}): Promise<string> {
    const rel = this.relOf(p) ?? p;
    return this.decode(rel, await this.readBytes(p, limit));
  }

  readTextSync(p: string, limit: ReadLimit = {}): string {
    const rel = this.relOf(p) ?? p;
    return this.decode(rel, this.readBytesSync(p, limit));
  }

  private decode(rel: string, bytes: Buffer): string {
    if (looksBinary(bytes)) {
      const message = `${rel}: binary content (a NUL byte among the first bytes); not read as text.`;
      this.report(rel, "binary", message);
      throw refusalError("binary", message);
    }
    const { text, invalidAt } = decodeUtf8(bytes);
    if (invalidAt !== null) this.report(rel, "invalid_utf8", `${rel}: not valid UTF-8 at byte ${invalidAt}; invalid bytes shown as \uFFFD.`);
    return text;
  }

  private checkOpened(rel: string, st: fs.Stats, limit: ReadLimit): void {
    if (!st.isFile()) {
      const message = `${rel}: ${describeSpecial(st)}, not a regular file; not read.`;
      // A folder where a file was expected is found only by reading (walks descend folders);
      // pipes, sockets and devices are also found by every walk, so they keep their own code.
      const reason = st.isDirectory() ? "unreadable" : "not_regular";
      this.report(rel, reason, message);
      throw refusalError(reason, message);
    }
    if (st.nlink > 1) {
      // A second name may live anywhere on the file system, outside the project included.
      const message = `${rel}: a hard link (the file has ${st.nlink} names, which may lie outside the project); not read.`;
      this.report(rel, "hard_link", message);
      throw refusalError("hard_link", message);
    }
    const maxBytes = capOf(limit);
    if (st.size > maxBytes) {
      const message = `${rel}: ${st.size} bytes is over the ${maxBytes}-byte limit; not read.`;
      this.report(rel, "too_large", message);
      throw refusalError("too_large", message);
    }
  }

  private openError(rel: string, e: unknown): WorkbenchError {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return new WorkbenchError("NOT_FOUND", `${rel}: no such file in the project.`, e);
    // ELOOP: the last component became a link after it was resolved; ENXIO: a socket.
    const reason: FsRefusal = code === "ELOOP" ? "outside_root" : code === "ENXIO" ? "not_regular" : "unreadable";
    const message = code === "ENXIO" ? `${rel}: a socket, not a regular file; not read.` : `${rel}: cannot be read (${code ?? "error"}).`;
    this.report(rel, reason, message);
    return refusalError(reason, message, e);
  }

  private readError(rel: string, e: unknown): WorkbenchError {
    if (e instanceof WorkbenchError) return e;
    const message = `${rel}: cannot be read (${(e as NodeJS.ErrnoException).code ?? "error"}).`;
    this.report(rel, "unreadable", message);
    return refusalError("unreadable", message, e);
  }

  /**
   * The absolute path to write `p` at: its folder (created when missing) is a real folder
   * inside the root, and the file itself, when present, is a regular file, not a link or
   * anything else. Callers write there (atomically) and nowhere else.
   */
  writablePathSync(p: string): string {
    const rel = this.relOf(p);
    if (rel === null || rel === "") throw new WorkbenchError("UNSAFE_PATH", `The path "${p}" is outside the project; nothing is written there.`);
    const parent = this.ensureDirSync(path.posix.dirname(rel));
    const target = path.join(parent, path.posix.basename(rel));
    let st: fs.Stats | null = null;
    try {
      st = fs.lstatSync(target);
    } catch {
      st = null;
    }
    if (st?.isSymbolicLink()) throw new WorkbenchError("UNSAFE_PATH", `${rel} is a link; it is not written through.`);
    if (st && !st.isFile()) throw new WorkbenchError("UNSAFE_PATH", `${rel} is ${describeSpecial(st)}; it is not replaced.`);
    return target;
  }

  /** An atomic write of `p` (temp file, fsync, rename), prepared but not yet committed; see writablePathSync. */
  prepareWriteSync(p: string, produce: (write: ChunkSink) => void): PreparedWrite {
    return prepareFileAtomic(this.writablePathSync(p), produce);
  }

  /** Replaces `p` with `text` atomically, inside the root and never through a link. */
  writeTextAtomicSync(p: string, text: string): void {
    this.prepareWriteSync(p, (write) => write(text)).commit();
  }

  /** A real folder inside the root (created, one component at a time, when missing). */
  ensureDirSync(p: string): string {
    const rel = this.relOf(p);
    if (rel === null) throw new WorkbenchError("UNSAFE_PATH", `The folder "${p}" is outside the project; nothing is written there.`);
    let real = this.root;
    for (const part of rel === "" ? [] : rel.split("/")) {
      const next = path.join(real, part);
      try {
        fs.mkdirSync(next);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw new WorkbenchError("UNREADABLE", `${rel}: the folder cannot be created.`, e);
      }
      let resolved: string;
      try {
        resolved = fs.realpathSync.native(next);
      } catch (e) {
        throw new WorkbenchError("UNSAFE_PATH", `${rel}: the folder cannot be resolved.`, e);
      }
      if (!this.inside(resolved)) throw new WorkbenchError("UNSAFE_PATH", `${rel}: the folder links outside the project; nothing is written there.`);
      if (!fs.statSync(resolved).isDirectory()) throw new WorkbenchError("UNSAFE_PATH", `${rel}: not a folder; nothing is written there.`);
      real = resolved;
    }
    return real;
  }

  /** The real path of an existing folder inside the root, or null (missing, outside, a loop: reported). */
  realDirSync(p: string): string | null {
    const s = this.statReal(p);
    return s && s.st.isDirectory() ? s.real : null;
  }
}

function capOf(limit: ReadLimit): number {
  if (typeof limit === "number") return limit;
  return limit.maxBytes ?? READ_CAPS[limit.kind ?? "json"];
}
