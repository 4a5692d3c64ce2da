import type fsModule from "node:fs";

/**
 * One folder's entries as a walk needs them: names in byte order, a kind per name, and for
 * each regular file what its stat said. Plain arrays, so a listing made on another thread
 * crosses over by structured clone.
 */
export interface DirListing {
  real: string;
  /** The folder could not be listed (errno code, or "error"); nothing else is set then. */
  error?: string;
  names: string[];
  /** One character per name: d folder, f file, l link, p pipe, s socket, c/b device, o other. */
  kinds: string;
  /**
   * Six numbers per name: size, mtime in ms, link count, device, inode, ctime in ms; for names
   * that are not files, or whose stat failed, size is negative: -1 vanished since the listing,
   * -2 path too long, -3 another stat error, -4 not a file.
   */
  stats: number[];
}

export interface ListRequest {
  real: string;
  depth: number;
}

export const STAT_FIELDS = 6;
export const VANISHED = -1;
export const TOO_LONG = -2;
export const STAT_FAILED = -3;

/**
 * Lists folders, and with `recurse` every plain folder below them down to `maxDepth`
 * (links are not followed; the walk does that itself), stopping after `maxEntries` entries.
 *
 * Self-contained on purpose: the listing worker runs this function's own source text, so it
 * may use nothing but its arguments (no imports, no module constants, no helpers).
 */
export function listDirs(fs: typeof fsModule, requests: ListRequest[], skip: string[], maxDepth: number, maxEntries: number, recurse: boolean): DirListing[] {
  const out: DirListing[] = [];
  const skipped = new Set(skip);
  const stack = requests.slice().reverse();
  let entries = 0;
  while (stack.length > 0 && entries <= maxEntries) {
    const { real, depth } = stack.pop()!;
    let dirents: fsModule.Dirent[];
    try {
      dirents = fs.readdirSync(real, { withFileTypes: true });
    } catch (e) {
      out.push({ real, error: (e as NodeJS.ErrnoException).code ?? "error", names: [], kinds: "", stats: [] });
      continue;
    }
    dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const names: string[] = [];
    const stats: number[] = [];
    let kinds = "";
    const below: ListRequest[] = [];
    const sep = real.endsWith("/") ? "" : "/";
    for (const e of dirents) {
      if (skipped.has(e.name)) continue;
      entries++;
      names.push(e.name);
      const abs = real + sep + e.name;
      if (e.isFile()) {
        kinds += "f";
        try {
          const st = fs.statSync(abs, { throwIfNoEntry: false });
          if (st) stats.push(st.size, st.mtimeMs, st.nlink, st.dev, st.ino, st.ctimeMs);
          else stats.push(-1, 0, 0, 0, 0, 0);
        } catch (err) {
          stats.push((err as NodeJS.ErrnoException).code === "ENAMETOOLONG" ? -2 : -3, 0, 0, 0, 0, 0);
        }
        continue;
      }
      stats.push(-4, 0, 0, 0, 0, 0);
      if (e.isDirectory()) {
        kinds += "d";
        if (recurse && depth < maxDepth) below.push({ real: abs, depth: depth + 1 });
      } else if (e.isSymbolicLink()) kinds += "l";
      else if (e.isFIFO()) kinds += "p";
      else if (e.isSocket()) kinds += "s";
      else if (e.isCharacterDevice()) kinds += "c";
      else if (e.isBlockDevice()) kinds += "b";
      else kinds += "o";
    }
    out.push({ real, names, kinds, stats });
    for (let i = below.length - 1; i >= 0; i--) stack.push(below[i]!);
  }
  return out;
}

/** The kind letter as the refusal wording wants it (a Stats-like object). */
export function kindAsStats(kind: string): { isDirectory(): boolean; isFIFO(): boolean; isSocket(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean } {
  return {
    isDirectory: () => kind === "d",
    isFIFO: () => kind === "p",
    isSocket: () => kind === "s",
    isCharacterDevice: () => kind === "c",
    isBlockDevice: () => kind === "b",
  };
}
