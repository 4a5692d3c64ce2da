import type { Command } from "commander";
import { WorkbenchError } from "../../lib/core/errors";
import { terminalSafe } from "../../lib/core/terminal";
import type { PacketConvergence } from "../../lib/deep-context/convergence";

const f3 = (n: number) => n.toFixed(3);

/** Human-readable convergence summary of a packet. */
export function formatConvergence(res: PacketConvergence): string {
  const { data } = res.payload;
  const out: string[] = [];
  out.push(`Deep-context convergence: ${res.packetDir}`);
  const src = res.graphSource;
  if (src.origin === "stored") {
    out.push(`Graph: stored (${src.file})`);
  } else {
    out.push(`Graph: derived from ${src.seatFiles.length} seat file(s) and ${src.deltaFiles.length} delta file(s): ${src.units} merged unit(s), ${src.iterations} slice iteration(s)`);
    if (src.runsWithoutFindings.length > 0) out.push(`  no finding data for run(s) ${src.runsWithoutFindings.join(", ")}; their slices count as uncovered`);
  }
  out.push(`Nodes: ${data.nodeCount}  Edges: ${data.edgeCount}  Signal variant: ${res.variant}`);
  if (!data.signals || !data.breakdown) {
    out.push("Signals: none (empty graph)");
  } else {
    out.push("Signals:");
    for (const t of data.trace) {
      const b = data.breakdown[t.signal];
      const counts = `(${b.vacuous ? "vacuous" : `${b.numerator}/${b.denominator}`})`;
      out.push(`  ${t.signal.padEnd(23)} ${f3(t.value)}  ${counts.padEnd(10)} threshold ${t.threshold.toFixed(2)}  ${t.role.padEnd(14)} ${t.passed ? "pass" : "FAIL"}`);
    }
  }
  const delta = data.scoreDelta === null ? data.scoreDeltaNote : `delta ${data.scoreDelta >= 0 ? "+" : ""}${f3(data.scoreDelta)} vs run ${data.lastIteration}`;
  out.push(`Score: ${f3(data.score)} (${delta})`);
  out.push(`Decision: ${data.decision}: ${data.reason}`);
  if (data.blockers.length === 0) out.push("Blockers: none");
  else {
    out.push("Blockers:");
    for (const b of data.blockers) out.push(`  - ${b.type} (${b.severity}, count ${b.count}): ${b.description}`);
  }
  const r = res.replay;
  if (r) {
    const stop = r.stopReason ? `${r.stopReason} at run ${r.stoppedAtRun}` : "no stop yet";
    const lastGraph = r.finalGraphDecision ? `${r.finalGraphDecision}${r.finalBlockers.length ? ` [${r.finalBlockers.map((b) => b.type).join(", ")}]` : ""}` : "none";
    out.push(`Loop replay: ${r.entries.length} iteration(s); rules stop: ${stop}; recorded stop: ${r.recorded.stopReason ?? "none"}; last graph decision: ${lastGraph}`);
    for (const e of r.entries) out.push(`  run ${String(e.run).padStart(2)} ${e.decision.padEnd(14)} ${e.reason.padEnd(20)} ${e.explanation}`);
    if (r.divergences.length > 0) {
      out.push("Log vs rules:");
      for (const d of r.divergences) out.push(`  - ${d}`);
    }
  }
  if (res.warnings.length > 0) {
    out.push(`Warnings (${res.warnings.length}):`);
    for (const w of res.warnings.slice(0, 20)) out.push(`  - ${w}`);
    if (res.warnings.length > 20) out.push(`  ... ${res.warnings.length - 20} more`);
  }
  return out.join("\n") + "\n";
}

export function registerConverge(program: Command, _setCode: (c: number) => void): void {
  program
    .command("converge")
    .description(
      "Evaluate deep-context convergence of a spec folder's packet: the five signals, score, decision and blockers, plus a replay of the host loop's stop rules. Uses {packet}/coverage-graph.json when present, else derives the graph from seat files and delta findings. Reads only inside the repository holding the spec folder (its nearest ancestor with .git, else the folder itself).",
    )
    .argument("<spec-folder>", "spec folder (its context/ packet is used) or the packet folder itself")
    .option("--json", "print the convergence payload (data + graph_* fields) as JSON")
    .option("--variant <variant>", "signal variant: documented (references and tests) or stored (signals.ts@cc68d45)", "documented")
    .option("--graph <file>", "read the coverage graph from this JSON file instead of the packet")
    .action(async (specFolder: string, opts: { json?: boolean; variant: string; graph?: string }) => {
      const { isSignalVariant } = await import("../../lib/deep-context/convergence");
      const { evaluatePacket } = await import("../../lib/deep-context/convergence");
      if (!isSignalVariant(opts.variant)) {
        throw new WorkbenchError("INVALID_INPUT", `Unknown --variant "${opts.variant}": use documented or stored`);
      }
      const res = await evaluatePacket(specFolder, { variant: opts.variant, ...(opts.graph ? { graphFile: opts.graph } : {}) });
      if (opts.json) {
        process.stdout.write(JSON.stringify({ ...res.payload, graph_origin: res.graphSource.origin, replay: res.replay, warnings: res.warnings }, null, 2) + "\n");
      } else {
        // Focus names, blockers and warnings are repository text.
        process.stdout.write(terminalSafe(formatConvergence(res)));
      }
    });
}
