/**
 * A two-iteration deep-context packet for the run comparison tests (unit and browser).
 * Iteration 2 adds a unit, confirms two (one of them lifted above the relevance gate),
 * raises a relevance and brings a signature contradiction; one unit stays as it was.
 */
import fs from "node:fs";
import path from "node:path";

export const COMPARE_SPEC = ".opencode/specs/z_compare/ledger";

/** What iteration 2 changes against iteration 1, as the comparison should report it. */
export const COMPARE_EXPECTED = {
  added: ["auditTrail"],
  changed: ["LedgerStore", "exportCsv", "legacyDump"],
  unchanged: ["formatAmount"],
  contradictionsNew: ["exportCsv"],
};

const F = (p: string, symbol: string, extra: Record<string, unknown> = {}) => ({ path: p, symbol, kind: "reuse_candidate", relevance: 0.8, evidence: `${p}:1`, ...extra });

/** Writes the packet under `root` and returns its folder, relative to root. */
export function writeComparePacket(root: string): string {
  const rel = `${COMPARE_SPEC}/context`;
  const dir = path.join(root, rel);
  const write = (name: string, body: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), body);
  };
  const json = (v: unknown) => JSON.stringify(v, null, 2) + "\n";
  write("deep-context-config.json", json({ scope: "Ledger export reuse", specFolder: COMPARE_SPEC, loopType: "context", maxIterations: 5, relevanceGate: 0.55, agreementMin: 2, status: "running" }));
  const signals = (s: number) => ({ sliceCoverage: s, reuseCatalogCoverage: s, agreementRate: s, relevanceFloor: 1, dependencyCompleteness: 1 });
  const log = [
    { type: "config", scope: "Ledger export reuse", loopType: "context", maxIterations: 5, convergenceThreshold: 0.1, relevanceGate: 0.55, agreementMin: 2, createdAt: "2026-06-01T09:00:00Z", specFolder: COMPARE_SPEC },
    {
      type: "iteration",
      run: 1,
      mode: "context",
      status: "evidence",
      focus: "Slice 1: ledger store",
      findingsCount: 5,
      newAgreementEligible: 1,
      agreementEligible: 1,
      ...signals(0.4),
      seatsSucceeded: 2,
      timestamp: "2026-06-01T09:10:00Z",
    },
    { type: "event", event: "sweep_settled", mode: "context", run: 1, seatsSucceeded: ["native-a", "native-b"], seatsFailed: [], timestamp: "2026-06-01T09:10:01Z" },
    {
      type: "event",
      event: "graph_convergence",
      mode: "context",
      run: 1,
      decision: "STOP_BLOCKED",
      signals: { ...signals(0.4), score: 0.5 },
      blockers: ["low_cross_executor_agreement"],
      timestamp: "2026-06-01T09:10:02Z",
    },
    {
      type: "iteration",
      run: 2,
      mode: "context",
      status: "evidence",
      focus: "Slice 2: export and audit",
      findingsCount: 6,
      newAgreementEligible: 3,
      agreementEligible: 4,
      ...signals(0.7),
      seatsSucceeded: 2,
      timestamp: "2026-06-01T09:20:00Z",
    },
    { type: "event", event: "sweep_settled", mode: "context", run: 2, seatsSucceeded: ["native-a", "native-c"], seatsFailed: [], timestamp: "2026-06-01T09:20:01Z" },
    { type: "event", event: "graph_convergence", mode: "context", run: 2, decision: "CONTINUE", signals: { ...signals(0.7), score: 0.75 }, blockers: [], timestamp: "2026-06-01T09:20:02Z" },
  ];
  write("deep-context-state.jsonl", log.map((r) => JSON.stringify(r)).join("\n") + "\n");
  write(
    "seats/iter-001/native-a.json",
    json([
      F("src/ledger/store.ts", "LedgerStore", { signature: "class LedgerStore", reuse: "extend", relevance: 0.9 }),
      F("src/ledger/export.ts", "exportCsv", { signature: "exportCsv(rows)", relevance: 0.7 }),
      F("src/ledger/legacy.ts", "legacyDump", { relevance: 0.5 }),
    ]),
  );
  write(
    "seats/iter-001/native-b.json",
    json([F("src/ledger/store.ts", "LedgerStore", { signature: "class LedgerStore", reuse: "extend", relevance: 0.9 }), F("src/money/format.ts", "formatAmount", { kind: "convention" })]),
  );
  write(
    "seats/iter-002/native-a.json",
    json([F("src/ledger/export.ts", "exportCsv", { signature: "exportCsv(rows)", relevance: 0.7 }), F("src/ledger/audit.ts", "auditTrail", { kind: "integration_point", relevance: 0.85 })]),
  );
  write(
    "seats/iter-002/native-c.json",
    json([
      F("src/ledger/export.ts", "exportCsv", { signature: "exportCsv(rows, opts)", relevance: 0.7 }),
      F("src/ledger/store.ts", "LedgerStore", { signature: "class LedgerStore", reuse: "extend", relevance: 0.95 }),
      F("src/ledger/legacy.ts", "legacyDump", { relevance: 0.7 }),
      F("src/ledger/audit.ts", "auditTrail", { kind: "integration_point", relevance: 0.85 }),
    ]),
  );
  return rel;
}
