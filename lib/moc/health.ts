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
  children: MocNode[];
}

export interface KbHealth {
  initialized: boolean;
  tree: MocNode | null;
  sections: number;
  files: number;
  brokenLinks: { from: string; target: string; path: string }[];
  escapingLinks: { from: string; target: string }[];
  oversizeIndexes: { path: string; lines: number }[];
  placeholderSections: string[];
  /** Files under docs/ that no _index.md links to (the loader never reads them). */
  unreachableFiles: string[];
  /** Linked, but deeper than the loader's depth limit. */
  tooDeep: string[];
}

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
  const visited = new Set<string>();

  const visit = async (rel: string, text: string, depth: number, hook: string): Promise<MocNode> => {
    visited.add(rel);
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
        if (!exists) health.brokenLinks.push({ from: shown(rel), target: l.target, path: shown(target) });
        else health.files++;
        if (exists && depth > MAX_DEPTH) health.tooDeep.push(shown(target));
        node.children.push({ path: shown(target), kind: "file", title: l.text, description: "", depth, hook: l.hook, reachable: depth <= MAX_DEPTH, missing: !exists, children: [] });
        continue;
      }
      if (visited.has(target)) continue;
      const childText = await read(target);
      if (childText === null) {
        health.brokenLinks.push({ from: shown(rel), target: l.target, path: shown(target) });
        node.children.push({ path: shown(target), kind: "section", title: l.text, description: "", depth: depth + 1, hook: l.hook, reachable: false, missing: true, children: [] });
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
  return health;
}
