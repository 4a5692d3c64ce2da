import path from "node:path";
import type { FileEntry } from "../../core/project-fs";
import { productManifestItemSchema, requirementsIndexSchema } from "../schemas";
import type { SearchDocument, SourceKind } from "../types";
import pMap from "p-map";
import { MANIFEST_MAX_BYTES, READ_CONCURRENCY, readJsonSafe, readManifest, readTextSafe, type ScanContext } from "./context";
import { firstHeading } from "./text";

/** Only the head of very long files is kept for search; the file itself stays the truth. */
export const MAX_DOCUMENT_CHARS = 200_000;
const TEXT_FILE = /\.(md|json|markdown|txt|ya?ml)$/i;

export function isSearchable(relPath: string): boolean {
  return TEXT_FILE.test(relPath) && !relPath.endsWith("/manifest.json") && relPath !== "manifest.json";
}

/** Which artifact root a file belongs to, and the slug (first path segment below it). */
export function locateArtifactFile(relPath: string, roots: { source: SourceKind; dir: string }[]): { source: SourceKind; slug: string } | null {
  let best: { source: SourceKind; dir: string } | null = null;
  for (const r of roots) {
    const prefix = r.dir === "." ? "" : r.dir + "/";
    if (relPath.startsWith(prefix) && (!best || r.dir.length > best.dir.length)) best = r;
  }
  if (!best) return null;
  const rest = relPath.slice(best.dir === "." ? 0 : best.dir.length + 1);
  const first = rest.split("/")[0] ?? "";
  const slug = rest.includes("/") ? first : first.replace(/\.md$/, "");
  return slug ? { source: best.source, slug } : null;
}

export async function artifactDocument(ctx: ScanContext, file: FileEntry, roots: { source: SourceKind; dir: string }[]): Promise<SearchDocument | null> {
  if (!isSearchable(file.relPath)) return null;
  const where = locateArtifactFile(file.relPath, roots);
  const text = await readTextSafe(ctx, file.relPath);
  if (text === null) return null;
  return {
    relPath: file.relPath,
    area: "artifact",
    source: where?.source ?? null,
    slug: where?.slug ?? null,
    title: file.relPath.endsWith(".md") ? firstHeading(text) : null,
    content: text.slice(0, MAX_DOCUMENT_CHARS),
  };
}

/** The requirements KB: one document per ticket of index.json, plus its other text files. */
export async function requirementsDocuments(ctx: ScanContext, dir: string, files: FileEntry[], withTickets = true): Promise<SearchDocument[]> {
  const out: SearchDocument[] = [];
  const indexRel = path.posix.join(dir, "index.json");
  const index = withTickets ? await readJsonSafe(ctx, indexRel, requirementsIndexSchema, MANIFEST_MAX_BYTES) : null;
  for (const t of index?.tickets ?? []) {
    out.push({
      relPath: `${indexRel}#${t.id}`,
      area: "requirements",
      source: null,
      slug: t.id,
      title: t.title ?? t.id,
      content: JSON.stringify(t),
    });
  }
  for (const f of files) {
    if (f.relPath === indexRel || !isSearchable(f.relPath)) continue;
    const text = await readTextSafe(ctx, f.relPath);
    if (text === null) continue;
    out.push({ relPath: f.relPath, area: "requirements", source: null, slug: null, title: firstHeading(text), content: text.slice(0, MAX_DOCUMENT_CHARS) });
  }
  return out;
}

/** Product knowledge: every text file, titled from the manifest when it lists the file. */
export async function productDocuments(ctx: ScanContext, dir: string, files: FileEntry[], skip: (rel: string) => boolean): Promise<SearchDocument[]> {
  // A re-index that changed no product file reads nothing here, manifest included: its stored
  // warnings stay as they are (a rebuilt area passes every file, the manifest among them).
  if (files.length === 0) return [];
  const read = files.filter((f) => f.relPath.endsWith(".md") && !skip(f.relPath));
  const manifest = await readManifest(ctx, dir, productManifestItemSchema, "path");
  const out: SearchDocument[] = [];
  const texts = await pMap(read, async (f) => ({ f, text: await readTextSafe(ctx, f.relPath) }), { concurrency: READ_CONCURRENCY });
  for (const { f, text } of texts) {
    if (text === null) continue;
    const inDir = dir === "." ? f.relPath : f.relPath.slice(dir.length + 1);
    const item = manifest.items.get(inDir);
    out.push({
      relPath: f.relPath,
      area: "product",
      source: null,
      slug: null,
      title: item?.title ?? firstHeading(text),
      content: (item?.summary ? `${item.summary}\n\n` : "") + text.slice(0, MAX_DOCUMENT_CHARS),
    });
  }
  return out;
}

/** The knowledge base (docs/): each markdown file the context-loader may read, titled by its first heading. */
export async function kbDocuments(ctx: ScanContext, files: FileEntry[]): Promise<SearchDocument[]> {
  const texts = await pMap(files, async (f) => ({ f, text: await readTextSafe(ctx, f.relPath) }), { concurrency: READ_CONCURRENCY });
  const out: SearchDocument[] = [];
  for (const { f, text } of texts) {
    if (text === null) continue;
    out.push({ relPath: f.relPath, area: "kb", source: null, slug: null, title: firstHeading(text), content: text.slice(0, MAX_DOCUMENT_CHARS) });
  }
  return out;
}
