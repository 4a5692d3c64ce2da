import path from "node:path";
import { brainstormItemSchema, workStateSchema } from "../schemas";
import type { BrainstormDetails, TopicSourceRecord } from "../types";
import { readEntries, entryDirs, pickStr, readJsonSafe, readManifest, readTextSafe, type ScanContext } from "./context";
import { bulletsUnder, countHeadings, firstHeading, headLines, normalizeTimestamp } from "./text";
import type { z } from "zod";

type BrainstormItem = z.output<typeof brainstormItemSchema>;

/** The files the seed reads for a brainstorm (and for prior art). */
const BRAINSTORM_FILES = ["context/approaches.md", "context/exploration.md", "context/architecture-validation.md", "implementation-picture.md", "work-breakdown.md"];

export async function readBrainstormEntry(ctx: ScanContext, root: string, slug: string, item: BrainstormItem | undefined, manifestValid: boolean): Promise<TopicSourceRecord> {
  const dir = path.posix.join(root, slug);
  const onDisk = await ctx.pfs.isDir(dir);
  const statePath = path.posix.join(dir, "state.json");
  const hasState = onDisk && (await ctx.pfs.isFile(statePath));
  const state = hasState ? await readJsonSafe(ctx, statePath, workStateSchema) : null;

  // With state.json: the named files. Without (a hand-made session): every .md in it.
  const candidates = hasState ? BRAINSTORM_FILES : (await ctx.pfs.walk(dir, { maxDepth: 2 })).map((f) => f.relPath.slice(dir.length + 1)).filter((f) => f.endsWith(".md"));
  const texts: { rel: string; text: string }[] = [];
  for (const f of candidates) {
    const text = onDisk ? await readTextSafe(ctx, path.posix.join(dir, f)) : null;
    if (text !== null) texts.push({ rel: f, text });
  }
  const approaches = texts.find((t) => t.rel.endsWith("approaches.md"))?.text ?? "";
  const keyDecisions = texts.flatMap((t) => bulletsUnder(t.text, /decision/i, 8)).slice(0, 8);
  const counted = countHeadings(approaches, /^(approach|option|alternative)\b/i);
  const phases = state?.phases ? Object.values(state.phases) : [];
  const done = phases.filter((p) => (p as { status?: unknown })?.status === "completed").length;

  const details: BrainstormDetails = {
    kind: "brainstorm",
    hasState,
    selectedApproach: pickStr(state?.selected_approach, item?.selected_approach),
    alternativesCount: item?.alternatives_count ?? (counted > 0 ? counted : null),
    keyDecisions,
    keyFiles: [...(hasState ? ["state.json"] : []), ...texts.map((t) => t.rel)],
    phasesDone: phases.length ? done : null,
    phasesTotal: phases.length || null,
    excerpts: texts.filter((t) => /approaches|exploration|implementation-picture/.test(t.rel)).map((t) => ({ relPath: t.rel, text: headLines(t.text, 6) })),
  };
  const firstTitle = texts.map((t) => firstHeading(t.text)).find((t) => t) ?? null;
  return {
    source: "brainstorm",
    slug,
    title: pickStr(state?.title, item?.title, hasState ? null : firstTitle),
    status: pickStr(state?.status, item?.status),
    type: "brainstorm",
    phase: pickStr(item?.current_phase),
    createdAt: normalizeTimestamp(pickStr(state?.created_at, item?.created_at)),
    updatedAt: normalizeTimestamp(pickStr(state?.updated_at, item?.updated_at, state?.created_at)),
    relPath: dir,
    fromManifest: item !== undefined,
    onDisk,
    legacy: false,
    listed: manifestValid ? item !== undefined : onDisk,
    details,
  };
}

export async function scanBrainstorms(ctx: ScanContext, dir: string, exclude: Set<string>, only?: Set<string>): Promise<{ records: TopicSourceRecord[]; slugs: string[] }> {
  const manifest = await readManifest(ctx, dir, brainstormItemSchema, "slug");
  const dirs = await entryDirs(ctx, dir, exclude);
  const slugs = [...new Set([...manifest.items.keys(), ...dirs])];
  const wanted = only ? slugs.filter((s) => only.has(s)) : slugs;
  const records = await readEntries(ctx, "brainstorm", dir, wanted, (slug) => readBrainstormEntry(ctx, dir, slug, manifest.items.get(slug), manifest.valid));
  return { records, slugs };
}
