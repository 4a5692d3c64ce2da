import path from "node:path";
import { proposalItemSchema } from "../schemas";
import type { ProposalDetails, TopicSourceRecord } from "../types";
import { readEntries, entryDirs, pickStr, readManifest, readTextSafe, type ScanContext } from "./context";
import { bulletsUnder, fieldLine, firstHeading, normalizeTimestamp } from "./text";
import type { z } from "zod";

type ProposalItem = z.output<typeof proposalItemSchema>;

async function readProposalEntry(ctx: ScanContext, root: string, slug: string, isFile: boolean, item: ProposalItem | undefined, manifestValid: boolean): Promise<TopicSourceRecord> {
  const rel = isFile ? path.posix.join(root, `${slug}.md`) : path.posix.join(root, slug);
  const onDisk = isFile ? await ctx.pfs.isFile(rel) : await ctx.pfs.isDir(rel);
  const files = !onDisk ? [] : isFile ? [`${slug}.md`] : (await ctx.pfs.list(rel)).filter((e) => !e.isDir && e.name.endsWith(".md")).map((e) => e.name);
  const texts: string[] = [];
  for (const f of files) {
    const t = await readTextSafe(ctx, isFile ? rel : path.posix.join(rel, f));
    if (t !== null) texts.push(t);
  }
  const main = texts[0] ?? "";
  // The most specific heading wins: "Key points", then a summary, then the proposal itself.
  const keyPoints = [/key points/i, /summary|highlights/i, /proposal|overview/i].map((re) => texts.map((t) => bulletsUnder(t, re, 6)).find((b) => b.length)).find((b) => b && b.length) ?? [];
  const details: ProposalDetails = {
    kind: "proposal",
    isFile,
    iterations: item?.iterations ?? (files.length || null),
    keyPoints,
    keyFiles: files,
  };
  return {
    source: "proposal",
    slug,
    title: pickStr(item?.title, firstHeading(main)),
    status: pickStr(item?.status, fieldLine(main, "Status")?.toLowerCase()),
    type: "proposal",
    phase: null,
    createdAt: normalizeTimestamp(item?.created_at),
    updatedAt: normalizeTimestamp(pickStr(item?.updated_at, item?.created_at)),
    relPath: rel,
    fromManifest: item !== undefined,
    onDisk,
    legacy: false,
    listed: manifestValid ? item !== undefined : onDisk,
    details,
  };
}

/** Proposals: folders, and single-file proposals named `{slug}.md`. */
export async function scanProposals(ctx: ScanContext, dir: string, exclude: Set<string>, only?: Set<string>): Promise<{ records: TopicSourceRecord[]; slugs: string[] }> {
  const manifest = await readManifest(ctx, dir, proposalItemSchema, "name");
  const dirs = await entryDirs(ctx, dir, exclude);
  const fileSlugs = (await ctx.pfs.list(dir)).filter((e) => !e.isDir && e.name.endsWith(".md") && !/^(readme|index)\.md$/i.test(e.name)).map((e) => e.name.slice(0, -3));
  const slugs = [...new Set([...manifest.items.keys(), ...dirs, ...fileSlugs])];
  const dirSet = new Set(dirs);
  const fileSet = new Set(fileSlugs);
  const wanted = only ? slugs.filter((s) => only.has(s)) : slugs;
  const records = await readEntries(ctx, "proposal", dir, wanted, (slug) => readProposalEntry(ctx, dir, slug, !dirSet.has(slug) && fileSet.has(slug), manifest.items.get(slug), manifest.valid));
  return { records, slugs };
}
