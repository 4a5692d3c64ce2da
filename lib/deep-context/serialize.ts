/**
 * findings-registry.json, byte for byte `JSON.stringify(registry, null, 2) + "\n"` as the
 * reference writes it, produced in chunks straight from the units (the 25,000-unit registry
 * is ~20 MB of text: no object tree and no single giant string). `registryObject` builds the
 * same document as plain objects for in-process consumers; tests check the two agree.
 */
import type { RegistryBuckets } from "./registry";
import { BUCKETS } from "./registry";
import type { CorruptionWarning, FindingsRegistry, RegistryFinding, SeatValidationWarning, SeatsOfIteration, StateLogRepair } from "./types";
import type { Unit } from "./units";

/** Everything of the registry besides the buckets, in the reference's key order. */
export interface RegistryTail {
  sessionId: string;
  lineageMode: string;
  generation: number;
  status: string;
  relevanceGate: number;
  agreementMin: number;
  executorPool: string[];
  iterationsCompleted: number;
  seatsByIteration: Record<string, SeatsOfIteration>;
  graphDecision: string | null;
  corruptionWarnings: CorruptionWarning[];
  seatValidationWarnings: SeatValidationWarning[];
  stateLogRepair: StateLogRepair;
}

const TAIL_KEYS: readonly (keyof RegistryTail)[] = [
  "sessionId",
  "lineageMode",
  "generation",
  "status",
  "relevanceGate",
  "agreementMin",
  "executorPool",
  "iterationsCompleted",
  "seatsByIteration",
  "graphDecision",
  "corruptionWarnings",
  "seatValidationWarnings",
  "stateLogRepair",
];

const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** A JSON string literal (JSON.stringify's only for strings that need escaping). */
function q(s: string): string {
  return NEEDS_ESCAPE.test(s) ? JSON.stringify(s) : `"${s}"`;
}

function num(n: number): string {
  return Number.isFinite(n) ? String(n) : "null";
}

/** JSON.stringify(value, null, 2) nested at `indent`. */
function nested(value: unknown, indent: string): string {
  return JSON.stringify(value, null, 2).replace(/\n/g, `\n${indent}`);
}

/** Buffers text and hands it on in chunks of about `chunkChars`. */
export class ChunkWriter {
  private parts: string[] = [];
  private size = 0;
  constructor(
    private readonly sink: (chunk: string) => void,
    private readonly chunkChars = 1 << 16,
  ) {}
  write(s: string): void {
    this.parts.push(s);
    this.size += s.length;
    if (this.size >= this.chunkChars) this.flush();
  }
  flush(): void {
    if (this.parts.length === 0) return;
    this.sink(this.parts.join(""));
    this.parts = [];
    this.size = 0;
  }
}

const producedBy: string[] = [];

function writeUnit(w: ChunkWriter, u: Unit, agreementMin: number, droppedBelowGate: number | null): void {
  // Sorted producers in a reused array (the reference: producedBy.slice().sort()).
  producedBy.length = 0;
  for (let i = 0; i < u.attribution.length; i += 3) producedBy.push(u.attribution[i]!);
  producedBy.sort();
  let by = "";
  for (let i = 0; i < producedBy.length; i++) by += `${i ? ",\n" : ""}        ${q(producedBy[i]!)}`;
  w.write(
    `    {\n      "unit_id": ${q(u.unitId)},\n      "path": ${q(u.path)},\n      "symbol": ${q(u.symbol)},\n      "kind": ${q(u.kind)},\n` +
      `      "signature": ${q(u.signature)},\n      "reuse": ${q(u.reuse)},\n      "evidence": ${q(u.evidence)},\n      "notes": ${q(u.notes)},\n` +
      `      "producedBy": [\n${by}\n      ],\n      "agreement": ${producedBy.length},\n      "agreementEligible": ${producedBy.length >= agreementMin},\n` +
      `      "relevance": ${num(u.relevance)},\n      "firstIteration": ${num(u.firstIteration)}` +
      (droppedBelowGate === null ? "\n    }" : `,\n      "droppedBelowGate": ${num(droppedBelowGate)}\n    }`),
  );
}

function writeArray<T>(w: ChunkWriter, key: string, items: readonly T[], each: (item: T) => void, last = false): void {
  if (items.length === 0) {
    w.write(`  ${q(key)}: []${last ? "\n" : ",\n"}`);
    return;
  }
  w.write(`  ${q(key)}: [\n`);
  for (let i = 0; i < items.length; i++) {
    if (i) w.write(",\n");
    each(items[i]!);
  }
  w.write(last ? "\n  ]\n" : "\n  ],\n");
}

export function writeRegistryJson(w: ChunkWriter, reg: RegistryBuckets, tail: RegistryTail): void {
  w.write("{\n");
  for (const name of BUCKETS) writeArray(w, name, reg.buckets[name], (u) => writeUnit(w, u, reg.agreementMin, null));
  writeArray(w, "lowConfidence", reg.lowConfidence, (u) => writeUnit(w, u, reg.agreementMin, reg.relevanceGate));
  writeArray(w, "contradictions", reg.contradictions, (c) =>
    w.write(
      `    {\n      "unit_id": ${q(c.unit_id)},\n      "path": ${q(c.path)},\n      "symbol": ${q(c.symbol)},\n      "field": ${q(c.field)},\n      "values": ${nested(c.values, "      ")}\n    }`,
    ),
  );
  w.write(`  "metrics": ${nested(reg.metrics, "  ")},\n`);
  TAIL_KEYS.forEach((key, i) => w.write(`  ${q(key)}: ${nested(tail[key], "  ")}${i === TAIL_KEYS.length - 1 ? "\n" : ",\n"}`));
  w.write("}\n");
}

function unitRecord(u: Unit, agreementMin: number): RegistryFinding {
  return {
    unit_id: u.unitId,
    path: u.path,
    symbol: u.symbol,
    kind: u.kind,
    signature: u.signature,
    reuse: u.reuse,
    evidence: u.evidence,
    notes: u.notes,
    producedBy: u.producers.sort(),
    agreement: u.agreement,
    agreementEligible: u.agreement >= agreementMin,
    relevance: u.relevance,
    firstIteration: u.firstIteration,
  };
}

/** The registry as plain objects (what JSON.parse of findings-registry.json gives). */
export function registryObject(reg: RegistryBuckets, tail: RegistryTail): FindingsRegistry {
  const b = (name: (typeof BUCKETS)[number]) => reg.buckets[name].map((u) => unitRecord(u, reg.agreementMin));
  return {
    reuseCandidates: b("reuseCandidates"),
    integrationPoints: b("integrationPoints"),
    conventions: b("conventions"),
    dependencies: b("dependencies"),
    gaps: b("gaps"),
    lowConfidence: reg.lowConfidence.map((u) => ({ ...unitRecord(u, reg.agreementMin), droppedBelowGate: reg.relevanceGate })),
    contradictions: reg.contradictions,
    metrics: reg.metrics,
    ...(Object.fromEntries(TAIL_KEYS.map((k) => [k, tail[k]])) as unknown as RegistryTail),
  };
}
