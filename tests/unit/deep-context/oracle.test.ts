/**
 * Byte equality with the reference reducer (reduce-state.cjs@21d0218): every case of
 * packets.ts is built in a temp folder and reduced through the `workbench reduce` command;
 * registry, dashboard, stdout, stderr, exit code, where the outputs went and what else
 * changed on disk (a truncated state log, created folders) must match what the reference
 * did on the same input (tests/fixtures/deep-context/oracle/<case>/).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runReduceCommand } from "../../../cli/commands/reduce-command";
import { reduceContextState } from "../../../lib/deep-context/reduce";
import { CASES, ORACLE_DIR, ROOT_PLACEHOLDER, UNSAFE_SPEC_FOLDERS, findOutputs, snapshotTree, type OracleResult } from "./packets";

const tmpRoots: string[] = [];
afterAll(() => {
  for (const r of tmpRoots) fs.rmSync(r, { recursive: true, force: true });
});

function freshRoot(): string {
  const r = fs.mkdtempSync(path.join(os.tmpdir(), "wb-reduce-"));
  tmpRoots.push(r);
  return r;
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
    it(`${name}${expected !== name ? ` (as ${expected})` : ""}`, async () => {
      const root = freshRoot();
      c.build(root);
      const o = oracle(expected);
      const run = await runCli(root, c.spec, c.referenceLayoutOnly);
      expect(run.code).toBe(o.result.exitCode);
      expect(run.stdout).toBe(o.result.stdout);
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
