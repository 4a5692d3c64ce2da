import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ProjectFs } from "../../../../lib/core/project-fs";
import { readSeatAndDeltaFindings, toProducedFinding } from "../../../../lib/deep-context/convergence/seat-files";
import { mergeFindingsLite } from "../../../../lib/deep-context/convergence/seat-merge-lite";
import { FIXTURE_SPEC } from "./graph-builder";

const tmp = mkdtempSync(path.join(os.tmpdir(), "wb-seats-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("toProducedFinding validation", () => {
  it("gives the reducer's reasons for invalid findings", () => {
    expect(toProducedFinding("x", ["a"], 1)).toEqual({ reason: "finding is not an object" });
    expect(toProducedFinding({ path: "p", kind: "weird" }, ["a"], 1)).toMatchObject({ reason: 'unknown kind "weird"' });
    expect(toProducedFinding({ kind: "gap" }, ["a"], 1)).toMatchObject({ reason: "missing both path and symbol" });
    expect(toProducedFinding({ path: "p", relevance: "high" }, ["a"], 1)).toMatchObject({ reason: "non-numeric relevance" });
  });

  it("defaults kind to reuse_candidate and relevance to 0", () => {
    const r = toProducedFinding({ path: "p", symbol: "s" }, ["a"], 4);
    expect(r).toEqual({ finding: { path: "p", symbol: "s", kind: "reuse_candidate", relevance: 0, producers: ["a"], iteration: 4 } });
  });
});

describe("readSeatAndDeltaFindings", () => {
  it("reads array and {findings} seat files, skips .raw.json, reads delta finding lines", async () => {
    const pkt = path.join(tmp, "pkt");
    mkdirSync(path.join(pkt, "seats", "iter-001"), { recursive: true });
    mkdirSync(path.join(pkt, "seats", "iter-002"), { recursive: true });
    mkdirSync(path.join(pkt, "deltas"), { recursive: true });
    writeFileSync(path.join(pkt, "seats", "iter-001", "native-a.json"), JSON.stringify([{ path: "a.ts", symbol: "f", relevance: 0.8 }, { kind: "gap" }]));
    writeFileSync(path.join(pkt, "seats", "iter-001", "native-b.json"), JSON.stringify({ findings: [{ path: "a.ts", symbol: "f", relevance: 0.6 }] }));
    writeFileSync(path.join(pkt, "seats", "iter-001", "native-c.raw.json"), "not json");
    writeFileSync(path.join(pkt, "seats", "iter-002", "native-a.json"), "{broken");
    writeFileSync(
      path.join(pkt, "deltas", "iter-002.jsonl"),
      [
        JSON.stringify({ type: "iteration", run: 2 }),
        JSON.stringify({ type: "finding", run: 2, path: "a.ts", symbol: "f", kind: "reuse_candidate", agreement: 2, producedBy: ["native-a", "native-c"], relevance: 0.7 }),
        "garbage",
      ].join("\n"),
    );
    const r = await readSeatAndDeltaFindings(ProjectFs.openSync(tmp), "pkt");
    expect(r.seatFiles).toEqual(["seats/iter-001/native-a.json", "seats/iter-001/native-b.json"]);
    expect(r.deltaFiles).toEqual(["deltas/iter-002.jsonl"]);
    expect(r.findings).toHaveLength(3);
    expect(r.warnings.map((w) => w.reason)).toEqual(expect.arrayContaining(["missing both path and symbol", expect.stringContaining("unreadable seat file"), expect.stringContaining("line 3")]));
    const { units } = mergeFindingsLite(r.findings);
    expect(units).toHaveLength(1);
    expect(units[0]).toMatchObject({ agreement: 3, producedBy: ["native-a", "native-b", "native-c"], relevance: 0.8, firstIteration: 1, iterations: [1, 2] });
  });

  it("returns nothing for a folder without seats or deltas", async () => {
    const r = await readSeatAndDeltaFindings(ProjectFs.openSync(tmp), "missing");
    expect(r).toEqual({ findings: [], seatFiles: [], deltaFiles: [], warnings: [] });
  });

  it("reads the real fixture packet's seat file and delta file", async () => {
    const r = await readSeatAndDeltaFindings(ProjectFs.openSync(FIXTURE_SPEC), "context");
    expect(r.seatFiles).toEqual(["seats/iter-003/mimo-c.json"]);
    expect(r.deltaFiles).toEqual(["deltas/iter-001.jsonl"]);
    expect(r.findings.length).toBeGreaterThan(20);
    expect(r.findings.every((f) => f.iteration === 1 || f.iteration === 3)).toBe(true);
    expect(r.findings.find((f) => f.symbol === "sqliteVec.load")).toMatchObject({ kind: "dependency", producers: ["mimo-a", "mimo-b", "mimo-c"], relevance: 1 });
  });

  it("never reads a seat or delta file that links out of the project, nor one nested too deep: each is a warning", async () => {
    const root = path.join(tmp, "hostile");
    const outside = mkdtempSync(path.join(os.tmpdir(), "wb-seats-out-"));
    try {
      mkdirSync(path.join(root, "seats", "iter-001"), { recursive: true });
      mkdirSync(path.join(root, "deltas"), { recursive: true });
      writeFileSync(path.join(outside, "secret.json"), JSON.stringify([{ path: "secret.ts", symbol: "OUTSIDE-SECRET", relevance: 1 }]));
      writeFileSync(path.join(outside, "secret.jsonl"), JSON.stringify({ type: "finding", run: 1, path: "secret.ts", symbol: "OUTSIDE-SECRET" }));
      symlinkSync(path.join(outside, "secret.json"), path.join(root, "seats", "iter-001", "leak.json"));
      symlinkSync(path.join(outside, "secret.jsonl"), path.join(root, "deltas", "iter-001.jsonl"));
      writeFileSync(path.join(root, "seats", "iter-001", "deep.json"), `[{"path":"a.ts","symbol":"f","notes":${"[".repeat(5000)}${"]".repeat(5000)}}]`);
      writeFileSync(path.join(root, "seats", "iter-001", "ok.json"), JSON.stringify([{ path: "a.ts", symbol: "f", relevance: 0.9 }]));
      const r = await readSeatAndDeltaFindings(ProjectFs.openSync(root), "");
      expect(r.seatFiles).toEqual(["seats/iter-001/ok.json"]);
      expect(r.deltaFiles).toEqual([]);
      expect(JSON.stringify(r)).not.toContain("OUTSIDE-SECRET");
      expect(r.warnings).toEqual([
        { file: "seats/iter-001/deep.json", reason: "seat file nested more than 256 levels deep; not read" },
        { file: "seats/iter-001/leak.json", reason: "seat file not read: a link to outside the project; not read." },
        { file: "deltas/iter-001.jsonl", reason: "delta file not read: a link to outside the project; not read." },
      ]);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });
});
