import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { ValidationResult } from "../../../lib/packets";

const root = path.resolve(import.meta.dirname, "../../..");
const fixtures = path.join(root, "tests/fixtures/packets");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "wb-pack-cli-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function workbench(...args: string[]) {
  return spawnSync(process.execPath, [path.join(root, "bin/workbench.cjs"), ...args], {
    encoding: "utf8",
    timeout: 60_000,
    env: process.env,
  });
}

describe("workbench pack validate", () => {
  it("reports a failing packet finding by finding and exits 1", () => {
    const file = path.join(fixtures, "failing-packet.md");
    const r = workbench("pack", "validate", file);
    expect(r.status).toBe(1);
    const lines = r.stdout.split("\n");
    expect(lines).toContain(
      `${file}:10:37  BLOCK  file-line-ref  file:line reference "session-store.ts:88": line numbers go stale on the first edit. Name the type or function instead (paths belong in Files Touched, without line numbers).`,
    );
    expect(lines.filter((l) => l.startsWith(`${file}:`)).map((l) => l.split("  ").slice(0, 3).join("  "))).toEqual([
      `${file}:3:1  BLOCK  missing-out-of-scope`,
      `${file}:3:1  BLOCK  missing-type-surface`,
      `${file}:7:12  WARN   narrative-path`,
      `${file}:10:37  BLOCK  file-line-ref`,
      `${file}:15:18  BLOCK  line-number-ref`,
      `${file}:19:1  BLOCK  path-bullet-outside-files-touched`,
      `${file}:20:7  WARN   narrative-path`,
      `${file}:23:3  WARN   files-touched-annotation`,
      `${file}:27:7  BLOCK  ac-shape-verb`,
      `${file}:28:7  WARN   ac-verb-not-whitelisted`,
      `${file}:29:7  WARN   ac-verb-not-whitelisted`,
    ]);
    // Each finding is followed by the seed line its tier comes from.
    const at = (prefix: string) => lines[lines.findIndex((l) => l.startsWith(prefix)) + 1];
    expect(at(`${file}:3:1  BLOCK  missing-out-of-scope`)).toBe('    seed 001 line 77 (HARD-GATE): "Missing `### Out of scope` section → DO NOT emit (completion-gate rejects)."');
    expect(at(`${file}:23:3  WARN   files-touched-annotation`)).toBe('    seed 001 line 190 (Self-Validation): "Files Touched entries include (TypeName, function) annotations"');
    expect(at(`${file}:27:7  BLOCK  ac-shape-verb`)).toMatch(/^ {4}seed 001 line 159 \(Constraint 10\): /);
    expect(r.stdout).toMatch(/^tokens: \d+ of 2000 \(cl100k_base \(js-tiktoken\)\)$/m);
    expect(r.stdout).toMatch(/^task size: \d+ tokens \(the packet's own estimate; give the delegated task's size with --task-tokens N\)$/m);
    expect(lines).toContain("completeness: partial");
    expect(lines).toContain("emit: refused (6 BLOCK, 5 WARN)");
    expect(r.stderr).toBe("");
  }, 60_000);

  it("allows a clean packet and a clean brief, exiting 0", () => {
    for (const name of ["clean-packet.md", "clean-brief.md"]) {
      const r = workbench("pack", "validate", path.join(fixtures, name));
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toContain("no findings");
      expect(r.stdout).toContain("completeness: full");
      expect(r.stdout.trimEnd().endsWith("emit: allowed")).toBe(true);
    }
  }, 60_000);

  it("prints the ValidationResult with --json", () => {
    const file = path.join(fixtures, "failing-packet.md");
    const r = workbench("pack", "validate", file, "--json");
    expect(r.status).toBe(1);
    const v = JSON.parse(r.stdout) as ValidationResult;
    const md = fs.readFileSync(file, "utf8");
    expect(v).toMatchObject({ kind: "packet", packet: md, budget: 2000, completeness: "partial", emittable: false });
    expect(v.tokenizer).toContain("cl100k_base");
    for (const f of v.findings) expect(md.slice(f.offset, f.offset + f.length)).toBe(f.text);
  }, 60_000);

  it("names the file when it is missing, a folder, too large or not UTF-8, and exits 2", () => {
    const missing = path.join(tmp, "nope.md");
    const big = path.join(tmp, "big.md");
    fs.writeFileSync(big, "## Context Packet\n\n" + "x".repeat(200_001));
    const binary = path.join(tmp, "binary.md");
    fs.writeFileSync(binary, Buffer.from([0xff, 0xfe, 0xfd, 0x00]));
    for (const [file, text] of [
      [missing, `ERROR: No file at ${missing}`],
      [tmp, `ERROR: ${tmp} is not a file`],
      [big, `ERROR: ${big} is too large for a packet`],
      [binary, `ERROR: ${binary} is not UTF-8 text`],
    ] as const) {
      const r = workbench("pack", "validate", file);
      expect(r.status, file).toBe(2);
      expect(r.stderr).toContain(text);
      expect(r.stdout).toBe("");
    }
  }, 60_000);

  it("takes the delegated task's size with --task-tokens: it decides the Type Surface gate and is reported", () => {
    // The clean packet is over 300 tokens; without its Type Surface it passes only for a smaller task.
    const md = fs.readFileSync(path.join(fixtures, "clean-packet.md"), "utf8").replace(/### Type Surface[^\n]*\n(?:- [^\n]*\n)+\n/, "");
    const file = path.join(tmp, "no-type-surface.md");
    fs.writeFileSync(file, md);
    const own = workbench("pack", "validate", file, "--json");
    expect(own.status).toBe(1);
    expect(JSON.parse(own.stdout)).toMatchObject({ task_tokens_source: "packet", emittable: false });
    const small = workbench("pack", "validate", file, "--task-tokens", "120");
    expect(small.status, small.stdout).toBe(0);
    expect(small.stdout).toContain("task size: 120 tokens (given with --task-tokens)\n");
    const large = workbench("pack", "validate", file, "--json", "--task-tokens=300");
    expect(large.status).toBe(1);
    const v = JSON.parse(large.stdout) as ValidationResult;
    expect(v).toMatchObject({ task_tokens: 300, task_tokens_source: "caller", emittable: false });
    expect(v.findings.filter((f) => f.tier === "BLOCK").map((f) => [f.rule, f.seedRef.line])).toEqual([["missing-type-surface", 77]]);
  }, 60_000);

  it("refuses a --task-tokens that is not a whole number of tokens, exiting 2", () => {
    for (const bad of ["-5", "3e2", "300.5", "lots", "", "10000001"]) {
      const r = workbench("pack", "validate", path.join(fixtures, "clean-packet.md"), `--task-tokens=${bad}`);
      expect(r.status, bad).toBe(2);
      expect(r.stderr).toContain("ERROR: --task-tokens: ");
      expect(r.stdout).toBe("");
    }
  }, 60_000);

  it("exits 2 on a usage error", () => {
    const noFile = workbench("pack", "validate");
    expect(noFile.status).toBe(2);
    expect(noFile.stderr).toContain("missing required argument 'file'");
    const badOption = workbench("pack", "validate", path.join(fixtures, "clean-packet.md"), "--strict");
    expect(badOption.status).toBe(2);
    expect(badOption.stderr).toContain("unknown option '--strict'");
  }, 60_000);
});
