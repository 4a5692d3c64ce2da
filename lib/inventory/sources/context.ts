import path from "node:path";
import pMap from "p-map";
import { isWorkbenchError } from "../../core/errors";
import { refusalOf } from "../../core/fs/refusal";
import { parseJsonText, parseLenient } from "../../core/lenient";
import type { ProjectFs } from "../../core/project-fs";
import type { WarningSink } from "../../core/warnings";
import { manifestEnvelopeSchema } from "../schemas";
import type { SourceKind, TopicSourceRecord } from "../types";
import type { z } from "zod";

export interface ScanContext {
  pfs: ProjectFs;
  warn: WarningSink;
  /** Texts already read in this index run, so the documents pass does not read them again. */
  cache?: Map<string, string | null>;
  /** Entries (`source\0slug`) that failed to index: what was stored for them is kept. */
  failed?: Set<string>;
}

/** Manifests and KB indexes may be larger than ordinary files. */
export const MANIFEST_MAX_BYTES = 64 * 1024 * 1024;

/** How many files are read at once. */
export const READ_CONCURRENCY = 16;

/** Reads a file as text, turning size and read failures into warnings; null when absent or unreadable. */
export async function readTextSafe(ctx: ScanContext, rel: string, maxBytes?: number): Promise<string | null> {
  if (ctx.cache?.has(rel) && maxBytes === undefined) return ctx.cache.get(rel)!;
  let text: string | null;
  try {
    text = await ctx.pfs.readText(rel, maxBytes);
  } catch (e) {
    if (!isWorkbenchError(e)) throw e;
    if (e.code !== "NOT_FOUND") ctx.warn({ relPath: rel, code: refusalOf(e) ?? (e.code === "TOO_LARGE" ? "too_large" : "unreadable"), message: e.message });
    text = null;
  }
  if (maxBytes === undefined) ctx.cache?.set(rel, text);
  return text;
}

export async function readJsonSafe<S extends z.ZodType>(ctx: ScanContext, rel: string, schema: S, maxBytes?: number): Promise<z.output<S> | null> {
  const text = await readTextSafe(ctx, rel, maxBytes);
  if (text === null) return null;
  const raw = parseJsonText(text, rel, ctx.warn);
  if (raw === undefined) return null;
  return parseLenient(schema, raw, rel, ctx.warn);
}

export interface ManifestRead<T> {
  /** True when manifest.json exists and parsed; a corrupt one counts as missing (directory scan). */
  valid: boolean;
  items: Map<string, T>;
}

/**
 * Manifest-first: `{dir}/manifest.json`, its items validated one by one and keyed by
 * `key`. A corrupt manifest is reported and the caller falls back to the directory scan.
 */
export async function readManifest<S extends z.ZodType>(ctx: ScanContext, dir: string, itemSchema: S, key: string): Promise<ManifestRead<z.output<S>>> {
  const rel = path.posix.join(dir, "manifest.json");
  const items = new Map<string, z.output<S>>();
  // Manifests of large projects pass the per-file limit (5,000 sessions: about 2.3 MB).
  const text = await readTextSafe(ctx, rel, MANIFEST_MAX_BYTES);
  if (text === null) return { valid: false, items };
  const raw = parseJsonText(text, rel, (w) => ctx.warn({ ...w, code: "corrupt_manifest", message: `${w.message} Falling back to a directory scan of ${dir}/.` }), "corrupt_manifest");
  if (raw === undefined) return { valid: false, items };
  const env = manifestEnvelopeSchema.safeParse(raw);
  if (!env.success) {
    ctx.warn({ relPath: rel, field: "items", code: "corrupt_manifest", message: `${rel}: has no items[] array; falling back to a directory scan of ${dir}/.` });
    return { valid: false, items };
  }
  env.data.items.forEach((item, i) => {
    const parsed = parseLenient(itemSchema, item, rel, (w) => ctx.warn({ ...w, field: `items.${i}${w.field ? "." + w.field : ""}` }));
    if (!parsed) return;
    const k = (parsed as Record<string, unknown>)[key];
    if (typeof k === "string" && k.trim() !== "") items.set(k, parsed);
  });
  return { valid: true, items };
}

/** Subfolders that are artifact entries: no dot folders, and not another artifact nested inside. */
export async function entryDirs(ctx: ScanContext, dir: string, exclude: Set<string>): Promise<string[]> {
  const entries = await ctx.pfs.list(dir);
  return entries.filter((e) => e.isDir && !e.name.startsWith(".") && !exclude.has(path.posix.join(dir, e.name))).map((e) => e.name);
}

export function pickStr(...vals: unknown[]): string | null {
  for (const v of vals) if (typeof v === "string" && v.trim() !== "") return v.trim();
  return null;
}

/**
 * Reads every wanted entry of a source. An entry whose reading throws (whatever the cause)
 * becomes a warning naming its folder; it is left out of this run's records and marked
 * failed, so the index keeps what it stored for it before and the other entries go on.
 */
export async function readEntries(ctx: ScanContext, source: SourceKind, dir: string, slugs: string[], read: (slug: string) => Promise<TopicSourceRecord>): Promise<TopicSourceRecord[]> {
  const records = await pMap(
    slugs,
    async (slug) => {
      try {
        return await read(slug);
      } catch (e) {
        const rel = path.posix.join(dir, slug);
        const why = e instanceof Error ? e.message.split("\n")[0] : String(e);
        ctx.warn({ relPath: rel, code: "unreadable", message: `${rel}: could not be indexed (${why}); what was indexed before is kept.` });
        ctx.failed?.add(`${source}\0${slug}`);
        return null;
      }
    },
    { concurrency: READ_CONCURRENCY },
  );
  return records.filter((r): r is TopicSourceRecord => r !== null);
}
