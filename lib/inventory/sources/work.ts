import path from "node:path";
import { findBoundaries, flagDirectives, hasBoundary } from "../directives";
import { workItemSchema, workStateSchema, type WorkState } from "../schemas";
import type { AgentOutput, SessionUpdate, TopicSourceRecord, WorkDetails } from "../types";
import { pickStr, readEntries, readJsonSafe, readManifest, readTextSafe, entryDirs, type ScanContext } from "./context";
import { normalizeTimestamp } from "./text";
import { readBrainstormEntry } from "./brainstorm";
import type { z } from "zod";

type WorkItem = z.output<typeof workItemSchema>;

/** Summaries are at most 10 lines; a full agent output is cut to its first 10 for the pack. */
const AGENT_OUTPUT_LINES = 10;
const UNTRUSTED_OUTPUTS = new Set(["archivist", "product-expert"]);

function phaseStatus(v: unknown): string | null {
  return v && typeof v === "object" && typeof (v as { status?: unknown }).status === "string" ? (v as { status: string }).status : null;
}

/** The phase a session is in: current_phase, else the first phase not completed, else the last one. */
export function currentPhase(state: WorkState | null, item: WorkItem | undefined): string | null {
  const explicit = pickStr(state?.current_phase, item?.current_phase);
  if (explicit) return explicit;
  const phases = state?.phases ?? state?.stages;
  if (!phases) return null;
  const names = Object.keys(phases);
  const open = names.find((n) => phaseStatus(phases[n]) !== "completed");
  return open ?? names[names.length - 1] ?? null;
}

function chunks(state: WorkState | null): { done: number | null; total: number | null; next: string | null } {
  const impl = state?.phases?.["implement"] as { chunks_completed?: unknown; chunks_total?: unknown } | undefined;
  const planChunks = state?.plan?.chunks ?? [];
  const done = typeof impl?.chunks_completed === "number" ? impl.chunks_completed : planChunks.length ? planChunks.filter((c) => c.status === "completed").length : null;
  const total = typeof impl?.chunks_total === "number" ? impl.chunks_total : planChunks.length || null;
  const next = planChunks.find((c) => c.status !== "completed")?.description ?? null;
  return { done, total, next };
}

/** Reads context/: the -summary.md variant wins over its full counterpart. */
async function agentOutputs(ctx: ScanContext, dir: string): Promise<{ outputs: AgentOutput[]; files: string[] }> {
  const cdir = path.posix.join(dir, "context");
  const names = (await ctx.pfs.list(cdir)).filter((e) => !e.isDir).map((e) => e.name);
  const files = names.map((n) => `context/${n}`);
  const md = new Set(names.filter((n) => n.endsWith(".md")));
  const outputs: AgentOutput[] = [];
  for (const name of [...md].sort()) {
    const isSummary = name.endsWith("-summary.md");
    const base = isSummary ? name.slice(0, -"-summary.md".length) : name.slice(0, -".md".length);
    if (!isSummary && md.has(`${base}-summary.md`)) continue;
    const rel = path.posix.join(cdir, name);
    const text = await readTextSafe(ctx, rel);
    if (text === null) continue;
    const untrusted = UNTRUSTED_OUTPUTS.has(base) || hasBoundary(text);
    const lines = text.replace(/\s+$/, "").split(/\r?\n/);
    const shown = lines.slice(0, isSummary || untrusted ? Math.max(AGENT_OUTPUT_LINES, boundaryEnd(text)) : AGENT_OUTPUT_LINES).join("\n");
    outputs.push({
      relPath: rel,
      name,
      isSummary,
      text: shown,
      untrusted,
      flagged: untrusted ? flagDirectives(text, rel) : [],
    });
  }
  return { outputs, files };
}

/** Keeps a wrapped summary whole up to its END marker, so the boundary stays visible. */
function boundaryEnd(text: string): number {
  const b = findBoundaries(text);
  return Math.min(
    40,
    b.reduce((m, x) => Math.max(m, x.endLine ?? 0), 0),
  );
}

function updates(state: WorkState | null): SessionUpdate[] {
  return (state?.updates ?? []).map((u) => ({
    timestamp: u.timestamp ?? null,
    note: u.auto && !u.note.startsWith("[auto]") ? `[auto] ${u.note}` : u.note,
    auto: u.auto === true || u.note.startsWith("[auto]"),
  }));
}

export async function readWorkEntry(ctx: ScanContext, workDir: string, slug: string, item: WorkItem | undefined, manifestValid: boolean): Promise<TopicSourceRecord> {
  const dir = path.posix.join(workDir, slug);
  const onDisk = await ctx.pfs.isDir(dir);
  const state = onDisk ? await readJsonSafe(ctx, path.posix.join(dir, "state.json"), workStateSchema) : null;
  const hasState = onDisk && (await ctx.pfs.isFile(path.posix.join(dir, "state.json")));
  if (onDisk && !hasState) {
    ctx.warn({
      relPath: dir,
      code: "unknown_layout",
      message: `${dir}: a work folder without state.json; shown from its files and the manifest only.`,
    });
  }
  const { outputs, files } = onDisk ? await agentOutputs(ctx, dir) : { outputs: [], files: [] };
  const type = pickStr(state?.type, item?.type);
  const c = chunks(state);
  const branches = state?.branches ?? state?.requirements?.branches;
  const details: WorkDetails = {
    kind: "work",
    hasState,
    featureBranch: pickStr(branches?.feature, item?.branch),
    baseBranch: pickStr(branches?.base),
    chunksDone: c.done,
    chunksTotal: c.total,
    nextChunk: c.next,
    keyFiles: [...(hasState ? [`state.json${type ? ` (type: ${type})` : ""}`] : []), ...files].slice(0, 15),
    agentOutputs: outputs,
    updates: updates(state),
    promotedFrom: pickStr(state?.brainstorm?.promoted_from),
    progress: pickStr(item?.progress),
  };
  return {
    source: "work",
    slug,
    title: pickStr(state?.title, item?.title),
    status: pickStr(state?.status, item?.status),
    type,
    phase: currentPhase(state, item),
    createdAt: normalizeTimestamp(pickStr(state?.created_at, state?.started_at, item?.created_at)),
    updatedAt: normalizeTimestamp(pickStr(state?.updated_at, item?.updated_at, state?.created_at)),
    relPath: dir,
    fromManifest: item !== undefined,
    onDisk,
    legacy: false,
    listed: manifestValid ? item !== undefined : onDisk,
    details,
  };
}

/**
 * Work sessions, manifest-first. Sessions whose type is "brainstorm" are pre-migration
 * brainstorms: they are returned as legacy brainstorm records.
 */
export async function scanWork(ctx: ScanContext, workDir: string, exclude: Set<string>, only?: Set<string>): Promise<{ records: TopicSourceRecord[]; slugs: string[] }> {
  const manifest = await readManifest(ctx, workDir, workItemSchema, "identifier");
  const dirs = await entryDirs(ctx, workDir, exclude);
  const slugs = [...new Set([...manifest.items.keys(), ...dirs])];
  const wanted = only ? slugs.filter((s) => only.has(s)) : slugs;
  const records = await readEntries(ctx, "work", workDir, wanted, async (slug): Promise<TopicSourceRecord> => {
    const item = manifest.items.get(slug);
    const rec = await readWorkEntry(ctx, workDir, slug, item, manifest.valid);
    if (rec.type !== "brainstorm") return rec;
    const bs = await readBrainstormEntry(ctx, workDir, slug, undefined, false);
    return {
      ...bs,
      title: rec.title ?? bs.title,
      status: rec.status ?? bs.status,
      updatedAt: rec.updatedAt ?? bs.updatedAt,
      createdAt: rec.createdAt ?? bs.createdAt,
      fromManifest: rec.fromManifest,
      legacy: true,
      listed: rec.listed,
    };
  });
  return { records, slugs };
}
