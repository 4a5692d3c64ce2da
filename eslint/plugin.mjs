// The Workbench's own lint rules, over the import graph in ./import-graph.mjs:
// - workbench/no-cycle: no module imports itself back, through any chain, `import type` included;
// - workbench/client-safe: a module that runs in the browser keeps no run-time import (direct or
//   through other modules) of Node built-ins or server-only packages. A module is client-side when
//   it says "use client" (React's boundary), so server components in components/ are not held to it.
import path from "node:path";
import { graphFor } from "./import-graph.mjs";

const ROOT = path.resolve(import.meta.dirname, "..");

function relative(file) {
  return path.relative(ROOT, file).split(path.sep).join("/");
}

function locOf(context, site) {
  const sc = context.sourceCode;
  return { start: sc.getLocFromIndex(site.start), end: sc.getLocFromIndex(site.end) };
}

const noCycle = {
  meta: {
    type: "problem",
    docs: { description: "forbid import cycles, type-only imports included" },
    schema: [],
    messages: { cycle: "Import cycle: {{chain}}. Move what both sides need into a module that neither imports (docs/ARCHITECTURE.md)." },
  },
  create(context) {
    const file = path.normalize(context.physicalFilename);
    if (!path.isAbsolute(file)) return {};
    const graph = graphFor(ROOT);
    return {
      Program() {
        const inCycle = new Set(graph.component(file));
        if (inCycle.size < 2) return;
        for (const { site, target } of graph.edgesOfText(file, context.sourceCode.text)) {
          if (target.kind !== "file" || !inCycle.has(target.file)) continue;
          const chain = [file, ...graph.pathBetween(target.file, file)].map(relative).join(" -> ");
          context.report({ loc: locOf(context, site), messageId: "cycle", data: { chain } });
        }
      },
    };
  },
};

const predicates = new Map();

/** One predicate per list, so the graph can remember its answers for each. `pg` stands for `pg` and `pg/…`; `*` is any text. */
function serverPredicate(serverPackages) {
  const key = JSON.stringify(serverPackages);
  let p = predicates.get(key);
  if (!p) {
    const res = serverPackages.map((s) => new RegExp(`^${s.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*")}(/.*)?$`));
    p = (t) => t.kind === "builtin" || (t.kind === "package" && res.some((re) => re.test(t.spec)));
    predicates.set(key, p);
  }
  return p;
}

const clientSafe = {
  meta: {
    type: "problem",
    docs: { description: "forbid run-time imports that cannot run in a browser in client modules" },
    schema: [
      {
        type: "object",
        properties: { serverPackages: { type: "array", items: { type: "string" } } },
        additionalProperties: false,
      },
    ],
    messages: {
      direct: "'{{spec}}' cannot run in a browser: a client module imports only types from it (import type).",
      through: "'{{spec}}' reaches server-only code at run time ({{chain}}): import only types from it (import type), or move what the client needs into a module without server imports.",
    },
  },
  create(context) {
    const options = context.options[0] ?? {};
    const file = path.normalize(context.physicalFilename);
    if (!path.isAbsolute(file)) return {};
    const isServer = serverPredicate(options.serverPackages ?? []);
    const graph = graphFor(ROOT);
    return {
      Program(program) {
        // A module without the directive runs in the browser only when a client module imports
        // it, and then the client module's own check follows the chain through it.
        if (!program.body.some((s) => s.type === "ExpressionStatement" && s.directive === "use client")) return;
        for (const { site, target } of graph.edgesOfText(file, context.sourceCode.text)) {
          if (site.typeOnly) continue;
          if (isServer(target)) {
            context.report({ loc: locOf(context, site), messageId: "direct", data: { spec: site.spec } });
            continue;
          }
          if (target.kind !== "file") continue;
          const chain = graph.serverChain(target.file, isServer);
          if (chain) {
            const shown = [target.file, ...chain].map((s) => (path.isAbsolute(s) ? relative(s) : s)).join(" -> ");
            context.report({ loc: locOf(context, site), messageId: "through", data: { spec: site.spec, chain: shown } });
          }
        }
      },
    };
  },
};

export default {
  meta: { name: "workbench" },
  rules: { "no-cycle": noCycle, "client-safe": clientSafe },
};
