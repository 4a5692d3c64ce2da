import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { evaluatePacket } from "../../../lib/deep-context/convergence";
import { lruMemo, type Memo } from "../../../lib/deep-context/memo";
import { reduceContextState } from "../../../lib/deep-context/reducer";

/** A memo that records which slots it had to compute. */
function countingMemo(): Memo & { computed: string[] } {
  const inner = lruMemo(8);
  const computed: string[] = [];
  return {
    computed,
    get: (slot, version, compute) =>
      inner.get(slot, version, () => {
        computed.push(slot.split("\u0001")[0]!);
        return compute();
      }),
  };
}

/**
 * Moves the clock the memos read (Date only) past the settle time of every file written so
 * far: files changed less than a second ago are never kept (see settledFingerprint).
 */
function settle(): void {
  vi.setSystemTime(performance.timeOrigin + performance.now() + 10_000);
}

const F = (p: string, symbol: string) => ({ path: p, symbol, kind: "reuse_candidate", relevance: 0.8 });
let spec: string;
let ctx: string;

function appendIteration(run: number): void {
  fs.appendFileSync(path.join(ctx, "deep-context-state.jsonl"), JSON.stringify({ type: "iteration", run, mode: "context", status: "evidence", focus: `Slice ${run}` }) + "\n");
}

/** Rewrites a seat file with one more finding (and a later mtime, as a writer would leave it). */
function addFinding(file: string, finding: object): void {
  const body = JSON.parse(fs.readFileSync(file, "utf8")) as { findings: object[] };
  body.findings.push(finding);
  fs.writeFileSync(file, JSON.stringify(body));
  settle();
}

beforeEach(() => {
  spec = fs.mkdtempSync(path.join(os.tmpdir(), "wb-memo-"));
  ctx = path.join(spec, "context");
  fs.mkdirSync(path.join(ctx, "seats", "iter-001"), { recursive: true });
  fs.writeFileSync(path.join(ctx, "deep-context-state.jsonl"), JSON.stringify({ type: "config", loopType: "context", scope: "memo test", maxIterations: 5 }) + "\n");
  appendIteration(1);
  fs.writeFileSync(path.join(ctx, "seats", "iter-001", "a.json"), JSON.stringify({ findings: [F("src/a.ts", "alpha"), F("src/b.ts", "beta")] }));
  fs.writeFileSync(path.join(ctx, "seats", "iter-001", "b.json"), JSON.stringify({ findings: [F("src/a.ts", "alpha")] }));
  vi.useFakeTimers({ toFake: ["Date"] });
  settle();
});
afterEach(() => {
  vi.useRealTimers();
  fs.rmSync(spec, { recursive: true, force: true });
});

describe("the reducer's seat memo (read-only calls)", () => {
  it("reads the seats once while they are unchanged, and the state log every time", () => {
    const memo = countingMemo();
    const read = () => reduceContextState(spec, { write: false, readOnly: true, seatMemo: memo }).registry();
    expect(read().iterationsCompleted).toBe(1);
    appendIteration(2);
    const again = read();
    expect(memo.computed).toEqual(["seats"]);
    expect(again.iterationsCompleted).toBe(2);
    expect(again.metrics.findings).toBe(2);
  });

  it("reads them again when a seat file changes", () => {
    const memo = countingMemo();
    const read = () => reduceContextState(spec, { write: false, readOnly: true, seatMemo: memo }).registry();
    expect(read().metrics.findings).toBe(2);
    addFinding(path.join(ctx, "seats", "iter-001", "b.json"), F("src/c.ts", "gamma"));
    expect(read().metrics.findings).toBe(3);
    expect(memo.computed).toEqual(["seats", "seats"]);
  });

  it("keeps the whole run and an earlier cut apart, and is not used when writing", () => {
    const memo = countingMemo();
    fs.mkdirSync(path.join(ctx, "seats", "iter-002"));
    fs.writeFileSync(path.join(ctx, "seats", "iter-002", "a.json"), JSON.stringify({ findings: [F("src/d.ts", "delta")] }));
    appendIteration(2);
    settle();
    expect(reduceContextState(spec, { write: false, readOnly: true, seatMemo: memo }).summary.findings).toBe(3);
    expect(reduceContextState(spec, { write: false, readOnly: true, seatMemo: memo, throughIteration: 1 }).summary.findings).toBe(2);
    expect(reduceContextState(spec, { seatMemo: memo }).summary.findings).toBe(3);
    expect(memo.computed).toEqual(["seats", "seats"]);
    expect(fs.existsSync(path.join(ctx, "findings-registry.json"))).toBe(true);
  });
});

describe("the convergence memos (merged seat findings, derived graph)", () => {
  it("merges the seats once while they are unchanged; a new iteration gets its slice node", async () => {
    const seatMemo = countingMemo();
    const graphMemo = countingMemo();
    const first = await evaluatePacket(ctx, { seatMemo, graphMemo });
    appendIteration(2);
    const second = await evaluatePacket(ctx, { seatMemo, graphMemo });
    expect(seatMemo.computed).toEqual(["lite"]);
    // The new iteration has no findings: the units' part of the graph is the same.
    expect(graphMemo.computed).toEqual(["graph"]);
    expect(second.graph.nodes.map((n) => n.id)).toContain("slice:Slice 2");
    expect(second.graph.nodes.length).toBe(first.graph.nodes.length + 1);
    expect(second).toEqual(await evaluatePacket(ctx));
  });

  it("reads them again when a seat file changes", async () => {
    const seatMemo = countingMemo();
    const graphMemo = countingMemo();
    const before = await evaluatePacket(ctx, { seatMemo, graphMemo });
    addFinding(path.join(ctx, "seats", "iter-001", "a.json"), F("src/c.ts", "gamma"));
    const after = await evaluatePacket(ctx, { seatMemo, graphMemo });
    expect(seatMemo.computed).toEqual(["lite", "lite"]);
    expect(after.graph.nodes.length).toBeGreaterThan(before.graph.nodes.length);
    expect(after).toEqual(await evaluatePacket(ctx));
  });
});

describe("seat files that changed less than a second ago", () => {
  it("are not kept: their size and times cannot yet reveal a same-length rewrite", () => {
    vi.useRealTimers();
    const memo = countingMemo();
    const read = () => reduceContextState(spec, { write: false, readOnly: true, seatMemo: memo }).summary.findings;
    expect(read()).toBe(2);
    expect(read()).toBe(2);
    expect(memo.computed).toEqual(["seats", "seats"]);
    vi.useFakeTimers({ toFake: ["Date"] });
    settle();
    read();
    read();
    expect(memo.computed).toEqual(["seats", "seats", "seats"]);
  });

  it("see a seat file added in a new iteration folder, and a label-first seat", () => {
    const memo = countingMemo();
    const read = () => reduceContextState(spec, { write: false, readOnly: true, seatMemo: memo }).registry();
    expect(read().metrics.findings).toBe(2);
    fs.mkdirSync(path.join(ctx, "seats", "c", "iter-001"), { recursive: true });
    fs.writeFileSync(path.join(ctx, "seats", "c", "iter-001", "findings.json"), JSON.stringify({ findings: [F("src/e.ts", "epsilon")] }));
    settle();
    expect(read().metrics.findings).toBe(3);
    expect(memo.computed).toEqual(["seats", "seats"]);
  });
});

describe("lruMemo", () => {
  it("keeps one value per slot, replaced when the version changes", () => {
    const memo = lruMemo(2);
    expect(memo.get("a", "v1", () => 1)).toBe(1);
    expect(memo.get("a", "v1", () => 2)).toBe(1);
    expect(memo.get("a", "v2", () => 3)).toBe(3);
    expect(memo.get("a", "v1", () => 4)).toBe(4);
    expect(memo.get("a", null, () => 5)).toBe(5);
    expect(memo.get("a", "v1", () => 6)).toBe(6);
  });

  it("forgets a computation that failed, so the next reader tries again", async () => {
    const memo = lruMemo(2);
    await expect(memo.get("k", "v", () => Promise.reject(new Error("unreadable")))).rejects.toThrow("unreadable");
    await Promise.resolve();
    expect(await memo.get("k", "v", () => Promise.resolve(42))).toBe(42);
    expect(() =>
      memo.get("s", "v", () => {
        throw new Error("sync");
      }),
    ).toThrow("sync");
    expect(memo.get("s", "v", () => 7)).toBe(7);
  });
});
