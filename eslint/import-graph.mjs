// The project's import graph, as TypeScript resolves it, for the rules in ./plugin.mjs.
// Every import counts, `import type` included: the ready-made cycle rules (import-x/no-cycle,
// import/no-cycle) skip type-only imports by design, and the layers forbid type cycles too.
// Files are read from disk once per process and parsed with TypeScript's own parser (no type
// checking), which keeps a whole-project lint to a few seconds on two cores.
import fs from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import ts from "typescript";

const BUILTINS = new Set(builtinModules);

/** @typedef {{ spec: string, start: number, end: number, typeOnly: boolean, dynamic: boolean }} ImportSite */
/** @typedef {{ kind: "file", file: string } | { kind: "builtin", name: string } | { kind: "package", name: string, spec: string } | { kind: "unresolved" }} Target */

/** Every import, re-export and `import()` of a module's text, with where it stands and whether it is erased at run time. */
export function importSites(fileName, text) {
  const kind = fileName.endsWith(".tsx") ? ts.ScriptKind.TSX : fileName.endsWith(".ts") || fileName.endsWith(".mts") ? ts.ScriptKind.TS : ts.ScriptKind.JS;
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, kind);
  /** @type {ImportSite[]} */
  const sites = [];
  const add = (lit, typeOnly, dynamic) => {
    if (lit && ts.isStringLiteralLike(lit)) sites.push({ spec: lit.text, start: lit.getStart(source), end: lit.getEnd(), typeOnly, dynamic });
  };
  for (const st of source.statements) {
    if (ts.isImportDeclaration(st)) {
      const c = st.importClause;
      const named = c?.namedBindings;
      const typeOnly = !!c && (c.isTypeOnly || (!c.name && !!named && ts.isNamedImports(named) && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly)));
      add(st.moduleSpecifier, typeOnly, false);
    } else if (ts.isExportDeclaration(st) && st.moduleSpecifier) {
      const ex = st.exportClause;
      const typeOnly = st.isTypeOnly || (!!ex && ts.isNamedExports(ex) && ex.elements.length > 0 && ex.elements.every((e) => e.isTypeOnly));
      add(st.moduleSpecifier, typeOnly, false);
    } else if (ts.isImportEqualsDeclaration(st) && ts.isExternalModuleReference(st.moduleReference)) {
      add(st.moduleReference.expression, st.isTypeOnly, false);
    }
  }
  if (text.includes("import(")) {
    const visit = (node) => {
      if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) add(node.arguments[0], false, true);
      else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node.argument.literal, true, false);
      ts.forEachChild(node, visit);
    };
    ts.forEachChild(source, visit);
  }
  return sites;
}

function packageName(spec) {
  const parts = spec.split("/");
  return spec.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

export class ImportGraph {
  /** @param {string} root the folder holding tsconfig.json */
  constructor(root) {
    this.root = root;
    const config = ts.readConfigFile(path.join(root, "tsconfig.json"), ts.sys.readFile).config ?? {};
    // `paths` without a baseUrl are relative to the tsconfig's folder.
    this.options = { ...ts.convertCompilerOptionsFromJson(config.compilerOptions ?? {}, root).options, baseUrl: root };
    this.cache = ts.createModuleResolutionCache(root, (f) => f, this.options);
    /** @type {Map<string, { site: ImportSite, target: Target }[]>} */
    this.edgesOf = new Map();
    this.texts = new Map();
    // Tarjan's strongly connected components, run lazily: a node's component is final once assigned.
    this.index = new Map();
    this.low = new Map();
    this.onStack = new Set();
    this.stack = [];
    this.counter = 0;
    /** @type {Map<string, string[]>} */
    this.componentOf = new Map();
    /** Answers of serverChain, by predicate and file. */
    this.serverChains = new WeakMap();
  }

  /** @returns {Target} */
  resolve(spec, fromFile) {
    if (spec.startsWith("node:") || BUILTINS.has(spec)) return { kind: "builtin", name: spec.replace(/^node:/, "") };
    if (!spec.startsWith(".") && !spec.startsWith("/") && !spec.startsWith("@/")) return { kind: "package", name: packageName(spec), spec };
    const r = ts.resolveModuleName(spec, fromFile, this.options, ts.sys, this.cache).resolvedModule;
    if (!r) return { kind: "unresolved" };
    const file = path.normalize(r.resolvedFileName);
    if (r.isExternalLibraryImport || file.split(path.sep).includes("node_modules")) return { kind: "package", name: packageName(spec), spec };
    return { kind: "file", file };
  }

  /** A module's imports with their targets, as on disk; generated code is a leaf (it never imports the project back). */
  edges(file) {
    let e = this.edgesOf.get(file);
    if (e) return e;
    e = [];
    const rel = path.relative(this.root, file);
    if (!rel.startsWith("..") && !rel.split(path.sep).includes("generated") && /\.(c|m)?(t|j)sx?$/.test(file)) {
      let text = "";
      try {
        text = fs.readFileSync(file, "utf8");
      } catch {
        // A file that cannot be read has no imports to follow.
      }
      this.texts.set(file, text);
      e = this.#link(file, text);
    }
    this.edgesOf.set(file, e);
    return e;
  }

  /** The imports of the text being linted: the graph's own when it is the text on disk (it is, from the command line). */
  edgesOfText(file, text) {
    const e = this.edges(file);
    return this.texts.get(file) === text ? e : this.#link(file, text);
  }

  #link(file, text) {
    return importSites(file, text).map((site) => ({ site, target: this.resolve(site.spec, file) }));
  }

  #connect(v) {
    // Iterative Tarjan: a deep chain of imports must not exhaust the call stack.
    const work = [{ v, i: 0 }];
    this.index.set(v, this.counter);
    this.low.set(v, this.counter++);
    this.stack.push(v);
    this.onStack.add(v);
    while (work.length) {
      const frame = work[work.length - 1];
      const out = this.edges(frame.v);
      if (frame.i < out.length) {
        const t = out[frame.i++].target;
        if (t.kind !== "file") continue;
        const w = t.file;
        if (!this.index.has(w)) {
          this.index.set(w, this.counter);
          this.low.set(w, this.counter++);
          this.stack.push(w);
          this.onStack.add(w);
          work.push({ v: w, i: 0 });
        } else if (this.onStack.has(w)) {
          this.low.set(frame.v, Math.min(this.low.get(frame.v), this.index.get(w)));
        }
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1].v;
        this.low.set(parent, Math.min(this.low.get(parent), this.low.get(frame.v)));
      }
      if (this.low.get(frame.v) === this.index.get(frame.v)) {
        const component = [];
        let w;
        do {
          w = this.stack.pop();
          this.onStack.delete(w);
          component.push(w);
        } while (w !== frame.v);
        for (const m of component) this.componentOf.set(m, component);
      }
    }
  }

  /** The files that import each other, directly or not, with this one (just itself when none). */
  component(file) {
    if (!this.index.has(file)) this.#connect(file);
    return this.componentOf.get(file) ?? [file];
  }

  /** The shortest chain of imports from `from` back to `to`, inside their shared component. */
  pathBetween(from, to) {
    const inside = new Set(this.component(to));
    const prev = new Map([[from, null]]);
    const queue = [from];
    while (queue.length) {
      const v = queue.shift();
      if (v === to) break;
      for (const { target } of this.edges(v)) {
        if (target.kind === "file" && inside.has(target.file) && !prev.has(target.file)) {
          prev.set(target.file, v);
          queue.push(target.file);
        }
      }
    }
    const chain = [];
    for (let v = to; v; v = prev.get(v) ?? null) chain.unshift(v);
    return chain;
  }

  /**
   * How a module reaches code that cannot run in a browser through the imports that stay at run
   * time: the chain of files ending in the module or package at fault, or null when it does not.
   * @param {(t: Target) => boolean} isServer
   */
  serverChain(file, isServer) {
    if (!this.serverChains.has(isServer)) this.serverChains.set(isServer, new Map());
    return this.#serverChain(file, isServer, this.serverChains.get(isServer), new Set()).chain;
  }

  /** `exact`: false when the walk met a file it was already inside (a cycle), so a "no" holds only for this walk. */
  #serverChain(file, isServer, known, walking) {
    if (known.has(file)) return { chain: known.get(file), exact: true };
    if (walking.has(file)) return { chain: null, exact: false };
    walking.add(file);
    let chain = null;
    let exact = true;
    for (const { site, target } of this.edges(file)) {
      if (site.typeOnly) continue;
      if (isServer(target)) {
        chain = [target.kind === "file" ? target.file : target.name];
        break;
      }
      if (target.kind !== "file") continue;
      const sub = this.#serverChain(target.file, isServer, known, walking);
      exact &&= sub.exact;
      if (sub.chain) {
        chain = [target.file, ...sub.chain];
        break;
      }
    }
    walking.delete(file);
    if (chain || exact) known.set(file, chain);
    return { chain, exact: exact || !!chain };
  }
}

const graphs = new Map();

/** One graph per project root and process: ESLint lints every file of a run in one process. */
export function graphFor(root) {
  let g = graphs.get(root);
  if (!g) graphs.set(root, (g = new ImportGraph(root)));
  return g;
}
