/**
 * Byte equality with the reference reducer (reduce-state.cjs@21d0218): every case of
 * packets.ts is built in a temp folder and reduced through the `workbench reduce` command;
 * registry, dashboard, stdout, stderr, exit code, where the outputs went and what else
 * changed on disk (a truncated state log, created folders) must match what the reference
 * did on the same input (tests/fixtures/deep-context/oracle/<case>/).
 *
 * Two differences are on purpose: the summary ends with `stateLogReading` (how the state log
 * was read), and a log whose bad line has valid lines after it is never cut (the reference cuts
 * it at the bad line, destroying the lines after it): see DIVERGES.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runReduceCommand } from "../../../../cli/commands/reduce-command";
import { reduceContextState } from "../../../../lib/deep-context/reducer/reduce";
import { CASES, ORACLE_DIR, ROOT_PLACEHOLDER, UNSAFE_SPEC_FOLDERS, findOutputs, snapshotTree, type OracleResult } from "../packets";

const tmpRoots: string[] = [];
afterAll(() => {
  for (const r of tmpRoots) fs.rmSync(r, { recursive: true, force: true });
});

/** A repository root (it holds `.git`): the reduce reads and writes only below it. */
function freshRoot(): string {
  const r = fs.mkdtempSync(path.join(os.tmpdir(), "wb-reduce-"));
  tmpRoots.push(r);
  fs.mkdirSync(path.join(r, ".git"));
  return r;
}

/** Cases where the reducer departs from the reference on purpose, tested on their own below. */
const DIVERGES: Record<string, string> = {
  "corrupt-middle": "a corrupt line with valid lines after it: the log is left whole and every valid line is read",
};

/** The reference's stdout with the field we add: how the state log was read (its own summary says repaired or not). */
function withReading(stdout: string): string {
  if (stdout === "") return stdout;
  const ref = JSON.parse(stdout) as { stateLogRepaired: boolean; corruptionCount: number };
  const reading = ref.stateLogRepaired ? "torn_tail_repaired" : ref.corruptionCount > 0 ? "corrupt_lines_kept" : "intact";
  return stdout.replace(/\n}\n$/, `,\n  "stateLogReading": "${reading}"\n}\n`);
}

function oracle(name: string): { result: OracleResult; registry: Buffer | null; dashboard: Buffer | null } {
  const dir = path.join(ORACLE_DIR, name);
  const read = (f: string) => (fs.existsSync(path.join(dir, f)) ? fs.readFileSync(path.join(dir, f)) : null);
  return { result: JSON.parse(fs.readFileSync(path.join(dir, "result.json"), "utf8")) as OracleResult, registry: read("findings-registry.json"), dashboard: read("deep-context-dashboard.md") };
}

async function runCli(root: string, spec: string, referenceLayoutOnly = false) {
  let stdout = "";
  let stderr = "";
  const code = await runReduceCommand([path.join(root, spec)], { referenceLayoutOnly }, { out: (t) => (stdout += t), err: (t) => (stderr += t) });
  const rel = (s: string) => s.split(root).join(ROOT_PLACEHOLDER);
  return { code, stdout: rel(stdout), stderr: rel(stderr) };
}

const NOTE = /^\[deep-context\] note: .*\n/gm;

describe("reduce matches the reference reducer byte for byte", () => {
  for (const [name, c] of Object.entries(CASES)) {
    const expected = c.expect ?? name;
    if (DIVERGES[name]) continue;
    it(`${name}${expected !== name ? ` (as ${expected})` : ""}`, async () => {
      const root = freshRoot();
      c.build(root);
      const o = oracle(expected);
      const run = await runCli(root, c.spec, c.referenceLayoutOnly);
      expect(run.code).toBe(o.result.exitCode);
      expect(run.stdout).toBe(withReading(o.result.stdout));
      expect(run.stderr.replace(NOTE, "")).toBe(o.result.stderr);
      const outputs = findOutputs(root);
      expect(outputs).toEqual(o.result.outputs);
      if (o.registry) expect(fs.readFileSync(path.join(root, outputs.registry[0]!)).equals(o.registry)).toBe(true);
      if (o.dashboard) expect(fs.readFileSync(path.join(root, outputs.dashboard[0]!)).equals(o.dashboard)).toBe(true);
      // Same side effects on the packet (only comparable when the input is the oracle's own).
      if (expected === name) expect(snapshotTree(root)).toEqual(o.result.tree);
    });
  }

  for (const [name, spec] of Object.entries(UNSAFE_SPEC_FOLDERS)) {
    it(`${name}: refused with exit 3, nothing written`, async () => {
      const root = freshRoot();
      const o = oracle(name);
      const run = await runCli(root, spec);
      expect(run.code).toBe(3);
      expect(run.code).toBe(o.result.exitCode);
      expect(run.stdout).toBe(o.result.stdout);
      expect(run.stderr).toBe(o.result.stderr);
      expect(snapshotTree(root)).toEqual(o.result.tree);
    });
  }
});

describe("the JSON.parse decoder gives the same registry as the byte scanner", () => {
  for (const [name, c] of Object.entries(CASES)) {
    const expected = c.expect ?? name;
    if (DIVERGES[name]) continue;
    const o = () => oracle(expected);
    it(name, () => {
      if (o().result.exitCode !== 0) return expect(o().registry).toBeNull();
      const root = freshRoot();
      c.build(root);
      const r = reduceContextState(path.join(root, c.spec), { decoder: "parse", layouts: c.referenceLayoutOnly ? "reference" : "both" });
      // Compared as the UTF-8 that gets written (lone surrogates become U+FFFD there).
      expect(Buffer.from(r.registryJson()).equals(o().registry!)).toBe(true);
      expect(Buffer.from(r.dashboard).equals(o().dashboard!)).toBe(true);
    });
  }
});

describe("in-memory views agree with the files", () => {
  for (const name of ["real-sqlite-to-turso", "random-mid", "unicode", "contradictions", "validation"]) {
    it(`${name}: registry() deep-equals the parsed file and registryJson() is its text`, () => {
      const root = freshRoot();
      CASES[name]!.build(root);
      const r = reduceContextState(path.join(root, CASES[name]!.spec));
      const text = fs.readFileSync(r.registryPath, "utf8");
      expect(r.registryJson()).toBe(text);
      expect(JSON.stringify(r.registry(), null, 2) + "\n").toBe(text);
    });
  }

  it("a second reduce of the same packet rewrites identical bytes (idempotent)", () => {
    const root = freshRoot();
    CASES["random-mid"]!.build(root);
    const spec = path.join(root, CASES["random-mid"]!.spec);
    const first = reduceContextState(spec);
    const a = fs.readFileSync(first.registryPath);
    const d = fs.readFileSync(first.dashboardPath);
    reduceContextState(spec);
    expect(fs.readFileSync(first.registryPath).equals(a)).toBe(true);
    expect(fs.readFileSync(first.dashboardPath).equals(d)).toBe(true);
  });
});

describe("where the reducer departs from the reference on purpose", () => {
  it(`corrupt-middle: ${DIVERGES["corrupt-middle"]}`, async () => {
    const root = freshRoot();
    const c = CASES["corrupt-middle"]!;
    c.build(root);
    const logPath = path.join(root, c.spec, "context", "deep-context-state.jsonl");
    const before = fs.readFileSync(logPath);
    const run = await runCli(root, c.spec);
    expect(run.code).toBe(0);
    // The reference cut the log to its first two lines (215 of 473 bytes); ours is untouched.
    expect(fs.readFileSync(logPath).equals(before)).toBe(true);
    expect(before.length).toBe(473);
    const summary = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(summary).toMatchObject({ iterationsCompleted: 2, corruptionCount: 1, stateLogRepaired: false, stateLogDroppedBytes: 0, stateLogReading: "corrupt_lines_kept" });
    expect(Object.keys(summary)).toEqual([...Object.keys(JSON.parse(oracle("corrupt-middle").result.stdout) as object), "stateLogReading"]);
    expect(run.stderr).toMatch(/^\[deep-context\] note: 1 line\(s\) of the state log could not be read \(first: line 4\); .*left whole/m);

    // Everything else as the reference computed it, from every valid line (the two after the bad one too).
    const o = oracle("corrupt-middle");
    const reference = JSON.parse(o.registry!.toString("utf8")) as Record<string, unknown>;
    const ours = JSON.parse(fs.readFileSync(path.join(root, c.spec, "context", "findings-registry.json"), "utf8")) as Record<string, unknown>;
    let parseError = "";
    try {
      JSON.parse("{not json at all");
    } catch (e) {
      parseError = (e as Error).message;
    }
    expect(ours).toEqual({
      ...reference,
      status: "COMPLETE",
      iterationsCompleted: 2,
      corruptionWarnings: [{ line: 4, length: 16, sha256: crypto.createHash("sha256").update("{not json at all").digest("hex").slice(0, 12), error: parseError }],
      stateLogRepair: { repaired: false, droppedBytes: 0, reading: "corrupt_lines_kept" },
    });
    const dashboard = fs.readFileSync(path.join(root, c.spec, "context", "deep-context-dashboard.md"), "utf8");
    expect(dashboard).toContain("- Status: COMPLETE\n- Iterations (parallel sweeps): 2 of 4\n");
    expect(dashboard).toMatch(/\| 1 \|.*\n\| 2 \|/);

    // The JSON.parse decoder agrees, and a read-only reduce reads the same without writing.
    const parsed = reduceContextState(path.join(root, c.spec), { decoder: "parse", readOnly: true });
    expect(parsed.registry()).toEqual(ours);
    expect(fs.readFileSync(logPath).equals(before)).toBe(true);
  });
});
