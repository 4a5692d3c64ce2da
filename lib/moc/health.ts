import path from "node:path";
import type { ProjectFs } from "../core/project-fs";
import { MAX_DEPTH, OVERSIZE_INDEX_LINES } from "./limits";
import { parseIndex } from "./parse-index";

export interface MocNode {
  /** Path shown to users, e.g. `docs/architecture/_index.md`. */
  path: string;
  kind: "section" | "file";
  title: string | null;
  description: string;
  depth: number;
  hook: string;
  /** True when the context-loader can reach it (depth ≤ 3 through _index.md links). */
  reachable: boolean;
  missing: boolean;
  /** Why a linked path is not read when it exists in some form ("is a named pipe", "links outside the project"). */
  problem?: string;
  children: MocNode[];
}

export interface KbHealth {
  initialized: boolean;
  tree: MocNode | null;
  sections: number;
  files: number;
  /** Links that lead nowhere readable; `reason` says why when it is not simply missing (a pipe, a link out, a loop). */
  brokenLinks: { from: string; target: string; path: string; reason?: string }[];
  escapingLinks: { from: string; target: string }[];
  oversizeIndexes: { path: string; lines: number }[];
  placeholderSections: string[];
  /** Files under docs/ that no _index.md links to (the loader never reads them). */
  unreachableFiles: string[];
  /** Linked, but deeper than the loader's depth limit. */
  tooDeep: string[];
  /** Set when the graph was larger than one request may walk: what was left out. */
  truncated: string | null;
  /** Files under docs/ the file layer would not read, and why (links out, loops, pipes, binary files, …). */
  refused: { path: string; message: string }[];
}

/** One request walks at most this many sections, this deep: a generated MOC cannot hold the server. */
export const HEALTH_MAX_SECTIONS = 2000;
export const HEALTH_MAX_DEPTH = 32;

/**
 * The whole MOC graph with what makes it worse for the loader. Unlike the loader this
 * lists docs/ itself, to find files no index reaches.
 */
export async function analyzeKb(pfs: ProjectFs, docsDir = "docs"): Promise<KbHealth> {
  const shown = (rel: string) => path.posix.join(docsDir, rel);
  const health: KbHealth = {
    initialized: false,
    tree: null,
    sections: 0,
    files: 0,
    brokenLinks: [],
    escapingLinks: [],
    oversizeIndexes: [],
    placeholderSections: [],
    unreachableFiles: [],
    tooDeep: [],
    truncated: null,
    refused: [],
  };
  const read = async (rel: string) => {
    try {
      return await pfs.readText(shown(rel));
    } catch {
      return null;
    }
  };
  const rootText = await read("_index.md");
  if (rootText === null) return health;
  health.initialized = true;
  const linked = new Set<string>(["_index.md"]);
  // Sections by real path: a link back to a folder above (docs/loop/up -> ..) is the same section.
  const visited = new Map<string, string>();
  const realOf = (rel: string) => pfs.realRelSync(shown(rel)) ?? shown(rel);
  const broken = (from: string, l: { target: string }, target: string, reason?: string) => health.brokenLinks.push({ from: shown(from), target: l.target, path: shown(target), ...(reason ? { reason } : {}) });
  const whyNot = (target: string) => {
    const why = pfs.whyNotReadable(shown(target));
    return why && why !== "is missing" ? why : undefined;
  };

  const visit = async (rel: string, text: string, depth: number, hook: string): Promise<MocNode> => {
    visited.set(realOf(rel), rel);
    health.sections++;
    const idx = parseIndex(text, rel);
    if (idx.lineCount > OVERSIZE_INDEX_LINES) health.oversizeIndexes.push({ path: shown(rel), lines: idx.lineCount });
    if (idx.placeholderOnly && rel !== "_index.md") health.placeholderSections.push(shown(rel));
    for (const e of idx.escaping) health.escapingLinks.push({ from: shown(rel), target: e.target });
    const node: MocNode = { path: shown(rel), kind: "section", title: idx.title, description: idx.description, depth, hook, reachable: depth <= MAX_DEPTH, missing: false, children: [] };
    if (depth > MAX_DEPTH) health.tooDeep.push(shown(rel));
    for (const l of idx.links) {
      const target = l.resolved!;
      linked.add(target);
      if (l.kind === "file") {
        const exists = await pfs.isFile(shown(target));
        if (!exists) broken(rel, l, target, whyNot(target));
        else health.files++;
        if (exists && depth > MAX_DEPTH) health.tooDeep.push(shown(target));
        // Stat only: a file over the markdown cap is one the loader will refuse, so say so here.
        const oversize = exists ? pfs.whyNotReadable(shown(target), { kind: "markdown" }) : null;
        if (oversize) health.refused.push({ path: shown(target), message: `${shown(target)} ${oversize}; the loader does not read it.` });
        const problem = exists ? (oversize ?? undefined) : whyNot(target);
        node.children.push({ path: shown(target), kind: "file", title: l.text, description: "", depth, hook: l.hook, reachable: depth <= MAX_DEPTH, missing: !exists, ...(problem ? { problem } : {}), children: [] });
        continue;
      }
      const first = visited.get(realOf(target));
      if (first !== undefined) {
        if (first !== target) broken(rel, l, target, `a link to ${shown(first)}, already walked (a loop or an alias)`);
        continue;
      }
      if (health.sections >= HEALTH_MAX_SECTIONS || depth >= HEALTH_MAX_DEPTH) {
        health.truncated ??= `The map has more than ${HEALTH_MAX_SECTIONS} sections or ${HEALTH_MAX_DEPTH} levels; the rest is not walked.`;
        continue;
      }
      const childText = await read(target);
      if (childText === null) {
        const problem = whyNot(target);
        broken(rel, l, target, problem);
        node.children.push({ path: shown(target), kind: "section", title: l.text, description: "", depth: depth + 1, hook: l.hook, reachable: false, missing: true, ...(problem ? { problem } : {}), children: [] });
        continue;
      }
      node.children.push(await visit(target, childText, depth + 1, l.hook));
    }
    return node;
  };
  health.tree = await visit("_index.md", rootText, 0, "");
  const all = await pfs.walk(docsDir);
  health.unreachableFiles = all
    .map((f) => f.relPath.slice(docsDir.length + 1))
    .filter((rel) => rel.endsWith(".md") && !linked.has(rel))
    .map(shown);
  health.refused.push(...pfs.skipped.filter((w) => w.relPath === docsDir || w.relPath.startsWith(`${docsDir}/`)).map((w) => ({ path: w.relPath, message: w.message })));
  return health;
}
