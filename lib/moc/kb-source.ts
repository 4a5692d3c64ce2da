import path from "node:path";
import { isWorkbenchError } from "../core/errors";
import { refusalOf, refusalPhrase } from "../core/fs/refusal";
import type { ProjectFs } from "../core/project-fs";
import { countTokens } from "../core/tokens";
import { KB_DIR } from "./kb-layout";

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
  /** Why a path could not be read or is not a file ("is missing", "is a named pipe", …). */
  why?(rel: string): string;
}

export function projectKbSource(pfs: ProjectFs, docsDir = KB_DIR, maxBytes = 1024 * 1024): KbSource {
  const stats = { filesRead: 0, bytesRead: 0, tokensRead: 0, reads: [] as string[] };
  const full = (rel: string) => path.posix.join(docsDir, rel);
  const listings = new Map<string, Map<string, "file" | "dir">>();
  // Each real file is read once: a second path to it is a link back (a loop) or an alias.
  const readAs = new Map<string, string>();
  const reasons = new Map<string, string>();
  return {
    docsDir,
    stats,
    why(rel) {
      return reasons.get(rel) ?? pfs.whyNotReadable(full(rel), maxBytes) ?? "is missing";
    },
    async read(rel) {
      if (rel.startsWith("../") || rel.includes("/../")) return null;
      const real = pfs.realRelSync(full(rel));
      if (real !== null) {
        const first = readAs.get(real);
        if (first !== undefined && first !== rel) {
          const message = `is a link to ${full(first)}, already read (a loop or an alias); not read again`;
          reasons.set(rel, message);
          pfs.report(full(rel), "symlink_loop", `${full(rel)} ${message}.`);
          return null;
        }
        readAs.set(real, rel);
      }
      try {
        const text = await pfs.readText(full(rel), maxBytes);
        stats.filesRead++;
        stats.bytesRead += Buffer.byteLength(text);
        stats.tokensRead += countTokens(text);
        stats.reads.push(rel);
        return text;
      } catch (e) {
        if (isWorkbenchError(e)) {
          const reason = refusalOf(e);
          if (reason) reasons.set(rel, reason === "not_regular" ? (pfs.whyNotReadable(full(rel), maxBytes) ?? refusalPhrase(reason)) : refusalPhrase(reason));
          return null;
        }
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
