/**
 * Synthetic deep-context run packets for the reducer benchmark (FORMATS.md §1.1),
 * deterministic from the parameters:
 *
 *   npx tsx bench/generate-context-packet.ts <spec-folder> [--iterations 8] [--executors 5] [--per-seat 2500] [--seed 1]
 *
 * Writes `<spec-folder>/context/` with a config, a state log (config line, one
 * sweep_settled + iteration + graph_convergence per iteration) and
 * `seats/iter-NNN/<label>.json` for every executor: `iterations × executors × perSeat`
 * seat findings in all. Every unit is reported by all executors but one (executor e skips
 * the units of "its" fifth), so with the defaults 100,000 seat findings merge into about
 * 25,000 units, each seen 4 times. Realistic noise: whitespace variants of path/symbol
 * (which normalisation folds together), producer-specific signatures or reuse verbs
 * (contradictions), relevance around the gate (low-confidence bucket), all five kinds,
 * seat files as bare arrays and as `{findings: [...]}`, and a few invalid findings
 * (seat validation warnings).
 */
import fs from "node:fs";
import path from "node:path";
import { OUT_DIR } from "./report";
import { mulberry32 } from "../tests/helpers/prng";

export const PACKET_GENERATOR_VERSION = 1;

export interface PacketSpec {
  iterations?: number;
  executors?: number;
  perSeat?: number;
  seed?: number;
}

export interface PacketStats {
  seatFindings: number;
  /** Distinct units before normalisation-only variants and invalid findings are accounted for. */
  universe: number;
  bytes: number;
}

const KINDS = ["reuse_candidate", "reuse_candidate", "reuse_candidate", "integration_point", "convention", "dependency", "gap"];
const REUSE = ["extend", "compose", "wrap", "import"];
const AREAS = ["storage", "search", "graph", "lease", "vector", "advisor", "index", "session", "hooks", "telemetry"];
const VERBS = ["open", "read", "write", "merge", "resolve", "index", "scan", "load", "sync", "flush", "parse", "emit"];
const NOUNS = ["Database", "Statement", "Cursor", "Snapshot", "Segment", "Lease", "Vector", "Edge", "Node", "Batch", "Journal"];

export function generatePacket(specFolder: string, spec: PacketSpec = {}): PacketStats {
  const iterations = spec.iterations ?? 8;
  const executors = spec.executors ?? 5;
  const perSeat = spec.perSeat ?? 2500;
  const rand = mulberry32(spec.seed ?? 1);
  const perExecutor = iterations * perSeat;
  // Each executor covers `perExecutor` consecutive units (mod universe), offset by its index,
  // so each unit is seen by `executors - 1` executors when universe = perExecutor * e / (e - 1).
  const universe = executors > 1 ? Math.round((perExecutor * executors) / (executors - 1)) : perExecutor;
  const shift = executors > 1 ? Math.round(universe / executors) : 0;

  const ctx = path.join(specFolder, "context");
  fs.mkdirSync(path.join(ctx, "seats"), { recursive: true });
  const labels = Array.from({ length: executors }, (_, e) => (e < 2 ? `native-${String.fromCharCode(97 + e)}` : `cli-seat-${e}`));

  // Per-unit base facts, drawn once so every producer agrees on path/symbol/kind.
  const unitArea = new Uint8Array(universe);
  const unitKind = new Uint8Array(universe);
  const unitRel = new Float32Array(universe);
  for (let u = 0; u < universe; u++) {
    unitArea[u] = Math.floor(rand() * AREAS.length);
    unitKind[u] = Math.floor(rand() * KINDS.length);
    unitRel[u] = 0.35 + rand() * 0.65;
  }
  const unitPath = (u: number) => `.opencode/skills/system-${AREAS[unitArea[u]!]}/lib/${AREAS[(u * 7) % AREAS.length]}/module-${u % 997}.ts`;
  // One unit in 50 has a multi-word symbol (like "WITH RECURSIVE walk" in real seats).
  const unitSymbol = (u: number) => `${VERBS[u % VERBS.length]}${u % 50 === 0 ? " " : ""}${NOUNS[(u >> 3) % NOUNS.length]}${u}`;

  let bytes = 0;
  let seatFindings = 0;
  for (let it = 0; it < iterations; it++) {
    const dir = path.join(ctx, "seats", `iter-${String(it + 1).padStart(3, "0")}`);
    fs.mkdirSync(dir, { recursive: true });
    for (let e = 0; e < executors; e++) {
      const findings: unknown[] = [];
      for (let k = 0; k < perSeat; k++) {
        const u = (it * perSeat + k + e * shift) % universe;
        const r = rand();
        if (r < 0.001) {
          findings.push({ path: "", symbol: "", kind: "reuse_candidate", relevance: 0.9 });
          continue;
        }
        if (r < 0.0015) {
          findings.push({ path: unitPath(u), symbol: unitSymbol(u), kind: "pattern", relevance: 0.9 });
          continue;
        }
        let p = unitPath(u);
        let s = unitSymbol(u);
        // Whitespace variants that normalise to the same unit.
        if (rand() < 0.03) p = ` ${p} `;
        if (rand() < 0.03) s = s.includes(" ") ? s.replace(" ", " \n  ") : `${s}\t`;
        const sigVariant = rand() < 0.02 ? `, opts?: Options` : "";
        const f: Record<string, unknown> = {
          path: p,
          symbol: s,
          kind: KINDS[unitKind[u]!],
          signature: `function ${unitSymbol(u)}(db: Database.Database, id: string${sigVariant}): Promise<Result>`,
          evidence: `${unitPath(u)}:${(u % 900) + 12}`,
          relevance: Math.round(Math.min(1, Math.max(0, unitRel[u]! + (rand() - 0.5) * 0.2)) * 1000) / 1000,
          notes: `${VERBS[(u + e) % VERBS.length]}s the ${NOUNS[u % NOUNS.length]!.toLowerCase()} through the ${AREAS[unitArea[u]!]} layer; seen by ${labels[e]} in sweep ${it + 1}.`,
        };
        if (rand() < 0.7) f.reuse = rand() < 0.02 ? REUSE[(u + e) % REUSE.length] : REUSE[u % REUSE.length];
        findings.push(f);
      }
      seatFindings += findings.length;
      const body = JSON.stringify(e % 2 === 0 ? { findings } : findings, null, 2) + "\n";
      bytes += Buffer.byteLength(body);
      fs.writeFileSync(path.join(dir, `${labels[e]}.json`), body);
    }
  }

  const config = {
    scope: "Synthetic packet: storage, search and graph layers",
    specFolder: "bench/context-packet",
    loopType: "context",
    executionMode: "auto",
    maxIterations: iterations,
    convergenceThreshold: 0.1,
    relevanceGate: 0.55,
    agreementMin: 2,
    fanout: { mode: "by-model-shared-scope", concurrency: 4, executors: labels.map((label) => ({ kind: label.startsWith("native") ? "native" : "cli-opencode", label })) },
    lineage: { sessionId: "ctx-bench-0001", lineageMode: "new", generation: 1 },
    createdAt: "2026-01-01T00:00:00Z",
    status: "running",
  };
  fs.writeFileSync(path.join(ctx, "deep-context-config.json"), JSON.stringify(config, null, 2) + "\n");
  const lines: unknown[] = [{ type: "config", scope: config.scope, loopType: "context", maxIterations: iterations, relevanceGate: 0.55, agreementMin: 2, createdAt: config.createdAt, specFolder: config.specFolder }];
  for (let it = 1; it <= iterations; it++) {
    const ts = `2026-01-01T0${Math.min(9, it)}:00:00Z`;
    lines.push({ type: "event", event: "sweep_settled", mode: "context", run: it, focusSliceCount: 6, seatsSucceeded: labels, seatsFailed: [], timestamp: ts, sessionId: "ctx-bench-0001", generation: 1 });
    lines.push({
      type: "iteration",
      run: it,
      mode: "context",
      status: "evidence",
      focus: `Slice ${it}: ${AREAS[it % AREAS.length]} layer`,
      findingsCount: perSeat * executors,
      newAgreementEligible: 100 * it,
      agreementEligible: 100 * it * it,
      sliceCoverage: it / iterations,
      reuseCatalogCoverage: 0.5,
      agreementRate: 0.4 + it / 100,
      relevanceFloor: 0.6,
      dependencyCompleteness: 1,
      contradictions: 3,
      seatsSucceeded: executors,
      durationMs: 300000,
      timestamp: ts,
      sessionId: "ctx-bench-0001",
      generation: 1,
    });
    lines.push({
      type: "event",
      event: "graph_convergence",
      mode: "context",
      run: it,
      decision: it < iterations ? "CONTINUE" : "STOP_ALLOWED",
      signals: { sliceCoverage: it / iterations, reuseCatalogCoverage: 0.8, agreementRate: 0.6, relevanceFloor: 0.7, dependencyCompleteness: 0.9, score: 0.7 },
      blockers: it < iterations ? [{ type: "uncovered_slices", count: iterations - it, severity: "blocking" }] : [],
      timestamp: ts,
      sessionId: "ctx-bench-0001",
      generation: 1,
    });
  }
  fs.writeFileSync(path.join(ctx, "deep-context-state.jsonl"), lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
  return { seatFindings, universe, bytes };
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const args = process.argv.slice(2);
  const dir = args.find((a) => !a.startsWith("--"));
  const num = (name: string) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? Number(args[i + 1]) : undefined;
  };
  if (!dir) {
    process.stderr.write("usage: tsx bench/generate-context-packet.ts <spec-folder> [--iterations N] [--executors N] [--per-seat N] [--seed N]\n");
    process.exit(1);
  }
  const stats = generatePacket(dir, { iterations: num("iterations"), executors: num("executors"), perSeat: num("per-seat"), seed: num("seed") });
  process.stdout.write(JSON.stringify(stats) + "\n");
}

/**
 * The packet for `spec`, generated once into bench/out/context-packets/<params>/spec and
 * reused afterwards (benchmarks must not modify it; copy it first when they would).
 */
export function cachedContextPacket(spec: Required<Pick<PacketSpec, "iterations" | "executors" | "perSeat" | "seed">>): {
  spec: string;
  generatedMs: number | null;
  seatFindings: number;
  bytes: number;
} {
  const key = `i${spec.iterations}-e${spec.executors}-p${spec.perSeat}-seed${spec.seed}-v${PACKET_GENERATOR_VERSION}`;
  const dir = path.join(OUT_DIR, "context-packets", key);
  const meta = `${dir}.json`;
  const specDir = path.join(dir, "spec");
  if (fs.existsSync(meta) && fs.existsSync(specDir)) {
    const m = JSON.parse(fs.readFileSync(meta, "utf8")) as { seatFindings: number; bytes: number };
    return { spec: specDir, generatedMs: null, ...m };
  }
  fs.rmSync(dir, { recursive: true, force: true });
  const t0 = performance.now();
  const stats = generatePacket(specDir, spec);
  fs.writeFileSync(meta, JSON.stringify(stats) + "\n");
  return { spec: specDir, generatedMs: performance.now() - t0, seatFindings: stats.seatFindings, bytes: stats.bytes };
}
