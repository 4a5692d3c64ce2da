import path from "node:path";
import { isWorkbenchError } from "../core/errors";
import type { ProjectFs } from "../core/project-fs";
import { countTokens } from "../core/tokens";

/**
 * Read access to a docs/ tree for the loader. Paths are relative to the docs root;
 * nothing outside it can be named. Every read is counted, for the input budget.
 */
export interface KbSource {
  /** Prefix shown in the pack, e.g. `docs`. */
  readonly docsDir: string;
  read(rel: string): Promise<string | null>;
  /** Only for checking that a link's target exists (the reachability rule). */
  kind(rel: string): Promise<"file" | "dir" | null>;
  /** Size in bytes of a linked file, to keep within the input budget; null when missing. */
  size(rel: string): Promise<number | null>;
  readonly stats: { filesRead: number; bytesRead: number; tokensRead: number; reads: string[] };
}

export function projectKbSource(pfs: ProjectFs, docsDir = "docs", maxBytes = 1024 * 1024): KbSource {
  const stats = { filesRead: 0, bytesRead: 0, tokensRead: 0, reads: [] as string[] };
  const full = (rel: string) => path.posix.join(docsDir, rel);
  const listings = new Map<string, Map<string, "file" | "dir">>();
  return {
    docsDir,
    stats,
    async read(rel) {
      if (rel.startsWith("../") || rel.includes("/../")) return null;
      try {
        const text = await pfs.readText(full(rel), maxBytes);
        stats.filesRead++;
        stats.bytesRead += Buffer.byteLength(text);
        stats.tokensRead += countTokens(text);
        stats.reads.push(rel);
        return text;
      } catch (e) {
        if (isWorkbenchError(e)) return null;
        throw e;
      }
    },
    async size(rel) {
      if (rel.startsWith("../") || rel.includes("/../")) return null;
      return (await pfs.stat(full(rel)))?.size ?? null;
    },
    async kind(rel) {
      if (rel.startsWith("../") || rel.includes("/../")) return null;
      // One listing per folder answers every link into it.
      const dir = path.posix.dirname(rel);
      let entries = listings.get(dir);
      if (!entries) {
        entries = new Map((await pfs.list(full(dir === "." ? "" : dir))).map((e) => [e.name, e.isDir ? ("dir" as const) : ("file" as const)]));
        listings.set(dir, entries);
      }
      return entries.get(path.posix.basename(rel)) ?? null;
    },
  };
}
