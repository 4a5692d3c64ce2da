import type { RegistryFinding } from "../types";

export interface AgreementView {
  executors: string[];
  /** matrix[i][j]: findings both executor i and executor j produced (diagonal: all of i's). */
  matrix: number[][];
  contributions: { executor: string; findings: number; unique: number; eligible: number }[];
  /** How many findings have agreement k, for k = 1..executors. */
  distribution: { agreement: number; findings: number }[];
}

/** Who found what with whom: the executor-by-executor view of a registry's findings. */
export function agreementView(findings: RegistryFinding[], pool: string[]): AgreementView {
  const executors = [...new Set([...pool, ...findings.flatMap((f) => f.producedBy)])].sort();
  const index = new Map(executors.map((e, i) => [e, i]));
  const n = executors.length;
  const matrix = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  const unique = new Array<number>(n).fill(0);
  const eligible = new Array<number>(n).fill(0);
  const dist = new Map<number, number>();
  for (const f of findings) {
    const ids = f.producedBy.map((p) => index.get(p)!);
    for (const a of ids) {
      for (const b of ids) matrix[a]![b]!++;
      if (f.agreementEligible) eligible[a]!++;
    }
    if (ids.length === 1) unique[ids[0]!]!++;
    dist.set(f.agreement, (dist.get(f.agreement) ?? 0) + 1);
  }
  return {
    executors,
    matrix,
    contributions: executors.map((e, i) => ({ executor: e, findings: matrix[i]![i]!, unique: unique[i]!, eligible: eligible[i]! })),
    distribution: Array.from({ length: Math.max(n, ...dist.keys(), 1) }, (_, k) => ({ agreement: k + 1, findings: dist.get(k + 1) ?? 0 })),
  };
}
