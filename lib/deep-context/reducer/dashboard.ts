/**
 * deep-context-dashboard.md, line for line as the reference's renderDashboard writes it:
 * status, per-iteration progress, merged metrics, the top of the reuse catalog,
 * contradictions, the latest graph-convergence verdict and, when the latest iteration
 * errored, an active-risk note.
 */
import type { RegistryBuckets } from "./registry";
import type { GraphRollup, JsonRecord, Lineage } from "./state";
import { isFiniteNumber, normalizeText, toNumber } from "../text";
import type { Contradiction } from "../types";

export const REUSE_CATALOG_ROWS = 15;

function fixed2(v: unknown): string {
  return isFiniteNumber(v) ? v.toFixed(2) : "[n/a]";
}

function blockerName(b: unknown): string {
  if (typeof b === "object" && b) {
    const o = b as JsonRecord;
    return `${(o.type || o.name || JSON.stringify(b)) as string}`;
  }
  return String(b);
}

/** `- symbol (field): seat="v" vs seat="v"` (the values in Object.entries order, without its arrays). */
function contradictionLine(c: Contradiction): string {
  let values = "";
  for (const seat in c.values) {
    if (!Object.prototype.hasOwnProperty.call(c.values, seat)) continue;
    values += `${values ? " vs " : ""}${seat}="${c.values[seat]}"`;
  }
  return `- ${c.symbol || c.path} (${c.field}): ${values}`;
}

export interface DashboardInput {
  config: unknown;
  registry: RegistryBuckets;
  iterations: JsonRecord[];
  lineage: Lineage;
  graph: GraphRollup;
  status: string;
}

export function renderDashboard({ config, registry, iterations, lineage, graph, status }: DashboardInput): string {
  // `config && config.x`, as the reference writes it (a falsy config yields itself).
  const c = (key: string): unknown => config && (config as JsonRecord)[key];
  const latest = iterations.length ? iterations[iterations.length - 1]! : null;
  const progressRows = iterations.length
    ? iterations
        .map((r) => {
          const focus = normalizeText(r.focus) || "unknown";
          const agr = isFiniteNumber(r.agreementRate) ? r.agreementRate.toFixed(2) : "0.00";
          const slice = isFiniteNumber(r.sliceCoverage) ? r.sliceCoverage.toFixed(2) : "0.00";
          return `| ${r.run as string} | ${focus} | ${toNumber(r.findingsCount, 0)} | ${toNumber(r.newAgreementEligible, 0)} | ${slice} | ${agr} | ${normalizeText(r.status) || "evidence"} |`;
        })
        .join("\n")
    : "| 0 | none yet | 0 | 0 | 0.00 | 0.00 | initialized |";

  const reuseRows = registry.metrics.reuseCandidates
    ? registry
        .top(0, REUSE_CATALOG_ROWS)
        .map((u) => `| ${u.symbol || u.path || u.unitId.slice(0, 8)} | ${u.reuse || "-"} | ${u.agreement} | ${u.relevance.toFixed(2)} | ${u.evidence || "-"} |`)
        .join("\n")
    : "| none yet | - | 0 | 0.00 | - |";

  const contradictionLines = registry.contradictions.length ? registry.contradictions.map(contradictionLine) : ["- None surfaced"];

  const m = registry.metrics;
  const s = graph.graphSignals;
  return [
    "---",
    "title: Deep Context Dashboard",
    "description: Auto-generated reducer view over the deep-context packet.",
    "---",
    "",
    "# Deep Context Dashboard",
    "",
    "Auto-generated from the JSONL state log, per-seat findings, and the merged registry. Never manually edited.",
    "",
    "## 1. STATUS",
    `- Scope: ${normalizeText(c("scope")) || "[Unknown scope]"}`,
    `- Started: ${(c("createdAt") || "[Unknown start]") as string}`,
    `- Status: ${status}`,
    `- Iterations (parallel sweeps): ${iterations.length} of ${(c("maxIterations") || 0) as number}`,
    `- Session ID: ${lineage.sessionId || "[Unknown session]"}`,
    `- Lineage mode: ${lineage.lineageMode}`,
    `- Generation: ${lineage.generation}`,
    "",
    "## 2. PROGRESS",
    "",
    "| # | Focus | Findings | NewAgr | sliceCov | agrRate | Status |",
    "|---|-------|----------|--------|----------|---------|--------|",
    progressRows,
    "",
    "## 3. MERGED METRICS",
    `- findings (deduped units): ${m.findings}`,
    `- gated findings (>= relevance gate): ${m.gatedFindings}`,
    `- low-confidence (below gate): ${m.lowConfidenceFindings}`,
    `- agreement-eligible (>= agreementMin): ${m.agreementEligible}`,
    `- agreementRate: ${m.agreementRate.toFixed(2)}`,
    `- relevanceFloor: ${m.relevanceFloor.toFixed(2)}`,
    `- reuseCandidates: ${m.reuseCandidates} | integrationPoints: ${m.integrationPoints} | conventions: ${m.conventions} | dependencies: ${m.dependencies} | gaps: ${m.gaps}`,
    "",
    "## 4. REUSE CATALOG (top, agreement-weighted)",
    "",
    "| Symbol/Path | Reuse | Agreement (k) | Relevance | Evidence |",
    "|-------------|-------|---------------|-----------|----------|",
    reuseRows,
    "",
    "## 5. CONTRADICTIONS (surfaced, never auto-resolved)",
    ...contradictionLines,
    "",
    "## 6. GRAPH CONVERGENCE",
    `- graphDecision: ${graph.graphDecision || "[Not recorded]"}`,
    `- sliceCoverage: ${fixed2(s.sliceCoverage)}`,
    `- reuseCatalogCoverage: ${fixed2(s.reuseCatalogCoverage)}`,
    `- agreementRate: ${fixed2(s.agreementRate)}`,
    `- relevanceFloor: ${fixed2(s.relevanceFloor)}`,
    `- dependencyCompleteness: ${fixed2(s.dependencyCompleteness)}`,
    ...(graph.graphBlockers.length ? graph.graphBlockers.map((b) => `- Blocker: ${blockerName(b)}`) : ["- Blockers: none recorded"]),
    ...(latest && normalizeText(latest.status) === "error" ? ["", "## 7. ACTIVE RISKS", "- Latest iteration reported error status."] : []),
    "",
  ].join("\n");
}
