import { createHash } from "node:crypto";
import type { AreaFile, ArtifactRoot, ScanScope } from "../inventory/scan";
import { locateArtifactFile } from "../inventory/sources/documents";
import type { SourceKind } from "../inventory/types";

export interface FileChanges {
  changed: AreaFile[];
  removed: string[];
}

/** Files whose size or mtime differ from the last index, and files that are gone. */
export function diffFiles(files: AreaFile[], previous: Map<string, { size: number; mtimeMs: number }>): FileChanges {
  const changed = files.filter((f) => {
    const p = previous.get(f.relPath);
    return !p || p.size !== f.size || p.mtimeMs !== f.mtimeMs;
  });
  const now = new Set(files.map((f) => f.relPath));
  const removed = [...previous.keys()].filter((p) => !now.has(p));
  return { changed, removed };
}

/**
 * Which slugs of which sources must be re-read for a set of changed paths. A change to
 * a manifest rescans its whole source; any other file rescans the entry it sits in.
 */
export function scopeFor(paths: string[], roots: ArtifactRoot[]): ScanScope {
  const scope: ScanScope = new Map();
  const add = (source: SourceKind, slug: string | "all") => {
    const cur = scope.get(source);
    if (cur === "all") return;
    if (slug === "all") {
      scope.set(source, "all");
      return;
    }
    scope.set(source, new Set([...(cur ?? []), slug]));
  };
  for (const p of paths) {
    const manifestOf = roots.find((r) => p === (r.dir === "." ? "manifest.json" : `${r.dir}/manifest.json`));
    if (manifestOf) {
      add(manifestOf.source, "all");
      continue;
    }
    const loc = locateArtifactFile(p, roots);
    if (loc) add(loc.source, loc.slug);
  }
  return scope;
}

/**
 * One value for a whole listing (paths, areas, sizes, mtimes). Stored when the stored
 * fingerprints match the listing exactly, it lets a re-index where nothing changed skip
 * reading and comparing every fingerprint.
 */
export function listingDigest(files: AreaFile[]): string {
  const h = createHash("sha256");
  // Fed in slices: one string per file costs more than the hash, one string for all costs memory.
  let part = "";
  for (const f of files) {
    part += `${f.relPath}\0${f.area}\0${f.size}\0${f.mtimeMs}\n`;
    if (part.length > 65_536) {
      h.update(part);
      part = "";
    }
  }
  return h.update(part).digest("hex");
}
