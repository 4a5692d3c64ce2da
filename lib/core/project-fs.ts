import fsSync from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { WorkbenchError } from "./errors";

/** Files above this size are not read; the indexer records a warning instead. */
export const MAX_FILE_BYTES = 2 * 1024 * 1024;

export interface FileEntry {
  /** Path relative to the project root, always with forward slashes. */
  relPath: string;
  size: number;
  /** Whole milliseconds: fractional parts do not survive every database round trip. */
  mtimeMs: number;
}

/** Forward-slash relative path; the form stored in the database and shown to users. */
export function toRel(root: string, abs: string): string {
  return path.relative(root, abs).split(path.sep).join("/");
}

/**
 * Read-only, root-confined access to one project on disk. Every path is checked twice:
 * lexically (no `..` escape) and after resolving symlinks (no link out of the root).
 */
export class ProjectFs {
  private constructor(readonly root: string) {}

  static async open(rootPath: string): Promise<ProjectFs> {
    const abs = path.resolve(rootPath);
    let real: string;
    try {
      real = await fs.realpath(abs);
    } catch {
      throw new WorkbenchError("NOT_FOUND", `No folder at ${abs}.`);
    }
    const st = await fs.stat(real);
    if (!st.isDirectory()) throw new WorkbenchError("INVALID_INPUT", `${abs} is not a folder.`);
    return new ProjectFs(real);
  }

  /** True when a relative path stays inside the root without following links. */
  isInside(rel: string): boolean {
    const abs = path.resolve(this.root, rel);
    return abs === this.root || abs.startsWith(this.root + path.sep);
  }

  resolve(rel: string): string {
    if (rel.includes("\0") || !this.isInside(rel)) {
      throw new WorkbenchError("UNSAFE_PATH", `The path "${rel}" is outside the project.`);
    }
    return path.resolve(this.root, rel);
  }

  /** The real location of a path, or null when it is missing or links out of the root. */
  private async realInside(rel: string): Promise<string | null> {
    if (rel.includes("\0") || !this.isInside(rel)) return null;
    const abs = path.resolve(this.root, rel);
    let real: string;
    try {
      real = await fs.realpath(abs);
    } catch {
      return null;
    }
    return real === this.root || real.startsWith(this.root + path.sep) ? real : null;
  }

  async isDir(rel: string): Promise<boolean> {
    const real = await this.realInside(rel);
    if (!real) return false;
    return (await fs.stat(real)).isDirectory();
  }

  async isFile(rel: string): Promise<boolean> {
    const real = await this.realInside(rel);
    if (!real) return false;
    return (await fs.stat(real)).isFile();
  }

  async stat(rel: string): Promise<FileEntry | null> {
    const real = await this.realInside(rel);
    if (!real) return null;
    const st = await fs.stat(real);
    return { relPath: rel, size: st.size, mtimeMs: Math.floor(st.mtimeMs) };
  }

  /** Names of the entries of a folder, sorted; links that escape the root are left out. */
  async list(rel: string): Promise<{ name: string; isDir: boolean }[]> {
    const real = await this.realInside(rel);
    if (!real) return [];
    let entries;
    try {
      entries = await fs.readdir(real, { withFileTypes: true });
    } catch {
      return [];
    }
    const out: { name: string; isDir: boolean }[] = [];
    for (const e of entries) {
      if (e.isSymbolicLink()) {
        const childRel = path.posix.join(rel, e.name);
        const target = await this.realInside(childRel);
        if (!target) continue;
        out.push({ name: e.name, isDir: (await fs.stat(target)).isDirectory() });
      } else if (e.isDirectory() || e.isFile()) {
        out.push({ name: e.name, isDir: e.isDirectory() });
      }
    }
    return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /**
   * Every file below a folder (stat only), skipping .git, node_modules and symbolic links.
   * Synchronous on purpose: for tens of thousands of files it is several times faster
   * than one promise per entry, and it is the no-change re-index's main cost.
   */
  async walk(rel: string, opts: { maxDepth?: number } = {}): Promise<FileEntry[]> {
    const maxDepth = opts.maxDepth ?? 12;
    const out: FileEntry[] = [];
    const start = await this.realInside(rel);
    if (!start) return out;
    const visit = (absDir: string, depth: number): void => {
      let entries: fsSync.Dirent[];
      try {
        entries = fsSync.readdirSync(absDir, { withFileTypes: true });
      } catch {
        return;
      }
      for (const e of entries) {
        if (e.name === ".git" || e.name === "node_modules") continue;
        const abs = path.join(absDir, e.name);
        if (e.isDirectory()) {
          if (depth < maxDepth) visit(abs, depth + 1);
        } else if (e.isFile()) {
          try {
            const st = fsSync.statSync(abs);
            out.push({ relPath: toRel(this.root, abs), size: st.size, mtimeMs: Math.floor(st.mtimeMs) });
          } catch {
            /* vanished between readdir and stat */
          }
        }
      }
    };
    visit(start, 0);
    return out.sort((a, b) => (a.relPath < b.relPath ? -1 : a.relPath > b.relPath ? 1 : 0));
  }

  /** UTF-8 text of a file; TOO_LARGE above the limit, UNREADABLE when it cannot be read. */
  async readText(rel: string, maxBytes = MAX_FILE_BYTES): Promise<string> {
    this.resolve(rel); // UNSAFE_PATH for names that escape the root
    const real = await this.realInside(rel);
    if (!real) throw new WorkbenchError("NOT_FOUND", `${rel}: no such file in the project.`);
    let st;
    try {
      st = await fs.stat(real);
    } catch (e) {
      throw new WorkbenchError("UNREADABLE", `${rel}: cannot be read.`, e);
    }
    if (st.size > maxBytes) {
      throw new WorkbenchError(
        "TOO_LARGE",
        `${rel}: ${st.size} bytes is over the ${maxBytes}-byte limit; not read.`,
      );
    }
    try {
      return await fs.readFile(real, "utf8");
    } catch (e) {
      throw new WorkbenchError("UNREADABLE", `${rel}: cannot be read.`, e);
    }
  }
}
