import type { FindingRow } from "../../lib/deep-context/views";

/** A registry finding row for tests: one executor, agreement 1, in reuseCandidates. */
export function findingRow(unit: string, over: Partial<FindingRow> = {}): FindingRow {
  return {
    unit_id: unit,
    path: `src/${unit}.ts`,
    symbol: unit,
    kind: "reuse_candidate",
    signature: "",
    reuse: "",
    evidence: "",
    notes: "",
    producedBy: ["a"],
    agreement: 1,
    agreementEligible: false,
    relevance: 0.5,
    firstIteration: 1,
    bucket: "reuseCandidates",
    contradicted: false,
    ...over,
  };
}
