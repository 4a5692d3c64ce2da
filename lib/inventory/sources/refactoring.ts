import path from "node:path";
import { z } from "zod";
import { refactoringItemSchema } from "../schemas";
import type { RefactoringDetails, TopicSourceRecord } from "../types";
import { readEntries, entryDirs, pickStr, readJsonSafe, readManifest, type ScanContext } from "./context";
import { normalizeTimestamp } from "./text";

const refactoringStateSchema = z
  .object({
    title: z.string().optional().describe("session title"),
    status: z.string().optional().describe("in_progress | completed | paused"),
    scope: z
      .union([z.string(), z.array(z.string())])
      .optional()
      .describe("what the refactoring covers"),
    progress: z
      .union([z.string(), z.object({ steps_completed: z.number().optional(), steps_total: z.number().optional() }).loose()])
      .optional()
      .describe("'3/7', or {steps_completed, steps_total}"),
    files_affected: z
      .union([z.number(), z.array(z.string())])
      .optional()
      .describe("count or list of files"),
    files: z
      .array(z.union([z.string(), z.object({ path: z.string() }).loose()]))
      .optional()
      .describe("files in the session"),
    created_at: z.string().optional(),
    updated_at: z.string().optional(),
  })
  .loose();

export async function scanRefactoring(ctx: ScanContext, dir: string, exclude: Set<string>, only?: Set<string>): Promise<{ records: TopicSourceRecord[]; slugs: string[] }> {
  const manifest = await readManifest(ctx, dir, refactoringItemSchema, "session_name");
  const dirs = await entryDirs(ctx, dir, exclude);
  const slugs = [...new Set([...manifest.items.keys(), ...dirs])];
  const wanted = only ? slugs.filter((s) => only.has(s)) : slugs;
  const records = await readEntries(ctx, "refactoring", dir, wanted, async (slug): Promise<TopicSourceRecord> => {
    const item = manifest.items.get(slug);
    const rel = path.posix.join(dir, slug);
    const onDisk = await ctx.pfs.isDir(rel);
    const names = onDisk ? (await ctx.pfs.list(rel)).filter((e) => !e.isDir).map((e) => e.name) : [];
    const stateName = names.find((n) => n === "state.json") ?? names.find((n) => n.endsWith(".json"));
    const state = stateName ? await readJsonSafe(ctx, path.posix.join(rel, stateName), refactoringStateSchema) : null;
    const listFrom = (v: unknown): string[] => (Array.isArray(v) ? v.map((f) => (typeof f === "string" ? f : (f as { path: string }).path)) : []);
    const files = [...listFrom(state?.files_affected), ...listFrom(state?.files)];
    const count = typeof item?.files_affected === "number" ? item.files_affected : typeof state?.files_affected === "number" ? state.files_affected : files.length || null;
    const p = state?.progress;
    const stateProgress = typeof p === "string" ? p : p && typeof p.steps_completed === "number" && typeof p.steps_total === "number" ? `${p.steps_completed}/${p.steps_total}` : null;
    const scope = Array.isArray(state?.scope) ? state.scope.join(", ") : pickStr(state?.scope);
    const details: RefactoringDetails = {
      kind: "refactoring",
      scope: scope ?? pickStr(item?.title, state?.title),
      progress: pickStr(item?.progress, stateProgress, item?.status, state?.status),
      filesAffected: [...new Set(files)].slice(0, 30),
      filesAffectedCount: count,
      keyFiles: names,
    };
    return {
      source: "refactoring",
      slug,
      title: pickStr(item?.title, state?.title),
      status: pickStr(item?.status, state?.status),
      type: "refactoring",
      phase: null,
      createdAt: normalizeTimestamp(pickStr(state?.created_at, item?.created_at)),
      updatedAt: normalizeTimestamp(pickStr(item?.updated_at, state?.updated_at, item?.created_at)),
      relPath: rel,
      fromManifest: item !== undefined,
      onDisk,
      legacy: false,
      listed: manifest.valid ? item !== undefined : onDisk,
      details,
    };
  });
  return { records, slugs };
}
