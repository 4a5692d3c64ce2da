import { resolveLayouts, type ResolvedLayout } from "../core/config";
import type { FileEntry, ProjectFs } from "../core/project-fs";
import type { WarningSink } from "../core/warnings";
import { scanBrainstorms } from "./sources/brainstorm";
import pMap from "p-map";
import { READ_CONCURRENCY, type ScanContext } from "./sources/context";
import { artifactDocument, kbDocuments, productDocuments, requirementsDocuments } from "./sources/documents";
import { scanProposals } from "./sources/proposal";
import { scanRefactoring } from "./sources/refactoring";
import { scanWork } from "./sources/work";
import type { SearchDocument, SourceKind, TopicSourceRecord } from "./types";
import { KB_DIR, KB_ROOT_INDEX } from "../moc/kb-layout";

export interface ArtifactRoot {
  source: SourceKind;
  dir: string;
}

/** Where one project's context lives, resolved from its configuration. */
export interface ScanPlan {
  layouts: ResolvedLayout[];
  roots: ArtifactRoot[];
  requirementsDirs: string[];
  productDirs: string[];
  /** The knowledge base the context-loader reads (docs/), when it has its root index; else null. */
  kbDir: string | null;
}

/** `kb`: the knowledge base's markdown files (docs/), searchable like the other areas. */
export type FileArea = "artifact" | "requirements" | "product" | "kb";
export interface AreaFile extends FileEntry {
  area: FileArea;
}

const ARTIFACT_OF: Record<SourceKind, "work" | "brainstorms" | "proposals" | "refactoring"> = {
  work: "work",
  brainstorm: "brainstorms",
  proposal: "proposals",
  refactoring: "refactoring",
};

export async function planScan(pfs: ProjectFs, warn: WarningSink): Promise<ScanPlan> {
  const layouts = await resolveLayouts(pfs, warn);
  const roots: ArtifactRoot[] = [];
  const requirementsDirs: string[] = [];
  const productDirs: string[] = [];
  for (const l of layouts) {
    for (const source of ["work", "brainstorm", "proposal", "refactoring"] as const) {
      const dir = l.artifacts[ARTIFACT_OF[source]].relPath;
      if (dir && !roots.some((r) => r.source === source && r.dir === dir)) roots.push({ source, dir });
    }
    const req = l.artifacts.requirements;
    if (req.configured && req.relPath && (await pfs.isDir(req.relPath)) && !requirementsDirs.includes(req.relPath)) requirementsDirs.push(req.relPath);
    const prod = l.artifacts["product-knowledge"];
    if (prod.configured && prod.relPath && (await pfs.isDir(prod.relPath)) && !productDirs.includes(prod.relPath)) productDirs.push(prod.relPath);
  }
  const kbDir = (await pfs.stat(`${KB_DIR}/${KB_ROOT_INDEX}`)) ? KB_DIR : null;
  return { layouts, roots, requirementsDirs, productDirs, kbDir };
}

function under(dir: string, rel: string): boolean {
  return dir === "." || rel === dir || rel.startsWith(dir + "/");
}

/** Every file the index covers, tagged with its area (stat only: this is the cheap pass). */
export async function listFiles(pfs: ProjectFs, plan: ScanPlan): Promise<AreaFile[]> {
  const seen = new Map<string, AreaFile>();
  let walks = 0;
  const add = async (dir: string, area: FileArea, only?: (relPath: string) => boolean) => {
    walks++;
    // The walked entry is this walk's own object: tagged in place rather than copied.
    for (const f of await pfs.walk(dir)) if (!seen.has(f.relPath) && (!only || only(f.relPath))) seen.set(f.relPath, Object.assign(f, { area }));
  };
  for (const r of plan.roots) await add(r.dir, "artifact");
  for (const d of plan.requirementsDirs) await add(d, "requirements");
  for (const d of plan.productDirs) await add(d, "product");
  // The loader reads markdown only; a knowledge area claimed above keeps its own area.
  if (plan.kbDir) await add(plan.kbDir, "kb", (rel) => rel.endsWith(".md"));
  const files = [...seen.values()];
  // One walk comes back sorted; only several need merging.
  return walks > 1 ? files.sort((a, b) => (a.relPath < b.relPath ? -1 : 1)) : files;
}

/** `only` limits the scan to some slugs per source (incremental re-index); absent means all. */
export type ScanScope = Map<SourceKind, Set<string> | "all">;

export interface SourceScan {
  records: TopicSourceRecord[];
  /** Every slug each source has now, scanned or not; lets the caller delete the rest. */
  present: Map<SourceKind, Set<string>>;
}

export async function scanSources(ctx: ScanContext, plan: ScanPlan, scope?: ScanScope): Promise<SourceScan> {
  const exclude = new Set(plan.roots.map((r) => r.dir));
  const records: TopicSourceRecord[] = [];
  const present = new Map<SourceKind, Set<string>>((["work", "brainstorm", "proposal", "refactoring"] as const).map((s) => [s, new Set<string>()]));
  const onlyFor = (s: SourceKind): Set<string> | undefined => {
    if (!scope) return undefined;
    const v = scope.get(s);
    return v === "all" ? undefined : (v ?? new Set());
  };
  for (const root of plan.roots) {
    const only = onlyFor(root.source);
    // Legacy brainstorms live in the work folder, so brainstorm changes rescan work too.
    const workOnly = root.source === "work" && scope ? mergeOnly(onlyFor("work"), onlyFor("brainstorm")) : only;
    const res =
      root.source === "work"
        ? await scanWork(ctx, root.dir, exclude, workOnly)
        : root.source === "brainstorm"
          ? await scanBrainstorms(ctx, root.dir, exclude, only)
          : root.source === "proposal"
            ? await scanProposals(ctx, root.dir, exclude, only)
            : await scanRefactoring(ctx, root.dir, exclude, only);
    for (const slug of res.slugs) present.get(root.source)!.add(slug);
    // Any work folder may hold a legacy brainstorm, so its slugs count as present brainstorms.
    if (root.source === "work") for (const slug of res.slugs) present.get("brainstorm")!.add(slug);
    records.push(...res.records);
  }
  return { records: dedupe(records, ctx), present };
}

function mergeOnly(a: Set<string> | undefined, b: Set<string> | undefined): Set<string> | undefined {
  if (!a || !b) return undefined;
  return new Set([...a, ...b]);
}

/**
 * One record per (source, slug). The first layout wins; a current-location brainstorm
 * wins over a legacy one in the work folder, as the seed's lookup order says.
 */
function dedupe(records: TopicSourceRecord[], ctx: ScanContext): TopicSourceRecord[] {
  const byKey = new Map<string, TopicSourceRecord>();
  for (const r of records) {
    const key = `${r.source}\0${r.slug}`;
    const prev = byKey.get(key);
    if (!prev) {
      byKey.set(key, r);
      continue;
    }
    if (prev.legacy && !r.legacy) {
      byKey.set(key, r);
      continue;
    }
    if (!r.legacy) {
      ctx.warn({
        relPath: r.relPath,
        code: "shadowed",
        message: `${r.relPath}: ${r.source} "${r.slug}" also exists at ${prev.relPath}; the first one is used.`,
      });
    }
  }
  return [...byKey.values()];
}

/**
 * Search documents for the given files. `rebuilt` names the knowledge areas whose
 * index (requirements index.json) is re-read too; other files are read one by one.
 */
export async function buildDocuments(ctx: ScanContext, plan: ScanPlan, files: AreaFile[], rebuilt: ("requirements" | "product")[] = ["requirements", "product"]): Promise<SearchDocument[]> {
  const out: SearchDocument[] = [];
  const artifact = files.filter((f) => f.area === "artifact");
  const docs = await pMap(
    artifact,
    (f) =>
      artifactDocument(ctx, f, plan.roots).catch((e: unknown) => {
        const why = e instanceof Error ? e.message.split("\n")[0] : String(e);
        ctx.warn({ relPath: f.relPath, code: "unreadable", message: `${f.relPath}: could not be indexed for search (${why}).` });
        return null;
      }),
    { concurrency: READ_CONCURRENCY },
  );
  for (const d of docs) if (d) out.push(d);
  for (const dir of plan.requirementsDirs) {
    const inDir = files.filter((f) => f.area === "requirements" && under(dir, f.relPath));
    if (inDir.length || rebuilt.includes("requirements")) out.push(...(await requirementsDocuments(ctx, dir, inDir, rebuilt.includes("requirements"))));
  }
  const kb = files.filter((f) => f.area === "kb");
  if (kb.length) out.push(...(await kbDocuments(ctx, kb)));
  const reqDirs = plan.requirementsDirs;
  for (const dir of plan.productDirs) {
    out.push(
      ...(await productDocuments(
        ctx,
        dir,
        files.filter((f) => f.area === "product" && under(dir, f.relPath)),
        (rel) => reqDirs.some((r) => under(r, rel)),
      )),
    );
  }
  return out;
}
