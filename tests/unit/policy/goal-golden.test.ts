/**
 * Goal policies against the reference's own output (goal-golden/README.md): every case's files
 * are written to a folder, then evaluated or validated by the library functions and by the real
 * CLI (`node bin/workbench.cjs ...` with the folder as working directory), and both must print
 * the reference's stdout byte for byte and exit with its code.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { pyJsonDumps } from "../../../lib/memory/canonical-json";
import { loadHumanKeys } from "../../../lib/memory/keys";
import { decisionJson } from "../../../lib/policy/decision-json";
import { evaluateExitCode, evaluatePolicyFiles } from "../../../lib/policy/evaluate";
import { validateCheckpointFile, validatePolicyFile } from "../../../lib/policy/validate-files";
import { type GoldenCase, loadGoldenCases } from "../../helpers/goal-golden";
import { REPO } from "./fixtures";

const CASES = [...loadGoldenCases("cases.json"), ...loadGoldenCases("replay-100-slices.json")];
/**
 * Through a real process: every case of the groups about the command itself, and the first
 * case of each other group (each CLI run starts tsx, about a second; the library runs them all).
 */
const WHOLE_GROUPS = new Set(["worked", "envelope", "validate", "hash", "numbers"]);
const group = (c: GoldenCase) => c.name.split(":")[0]!;
const CLI_CASES = CASES.filter((c, i) => WHOLE_GROUPS.has(group(c)) || CASES.findIndex((x) => group(x) === group(c)) === i);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "wb-goal-golden-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** A fresh folder holding the case's files, as the reference saw them. */
function folderOf(c: GoldenCase, i: number): string {
  const dir = path.join(tmp, String(i));
  fs.mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(c.files)) fs.writeFileSync(path.join(dir, name), text);
  return dir;
}

const arg = (c: GoldenCase, flag: string) => {
  const i = c.args.indexOf(flag);
  return i < 0 ? undefined : c.args[i + 1];
};

/** What the library prints for the case, run from the case's folder (paths in messages are as given). */
function viaLibrary(c: GoldenCase, dir: string): { stdout: string; exit: number } {
  const cwd = process.cwd();
  process.chdir(dir);
  try {
    if (c.command === "evaluate") {
      const env = c.env ? { AGENT_COLLAB_HUMAN_KEYS_JSON: c.env.AGENT_COLLAB_HUMAN_KEYS_JSON } : {};
      const d = evaluatePolicyFiles(arg(c, "--policy")!, arg(c, "--checkpoint")!, { loadKeys: () => loadHumanKeys({ env }) });
      return { stdout: decisionJson(d), exit: evaluateExitCode(d) };
    }
    const r = c.command === "policy-validate" ? validatePolicyFile(arg(c, "--policy")!) : validateCheckpointFile(arg(c, "--checkpoint")!);
    return { stdout: pyJsonDumps(r, { indent: 2, sortKeys: true }) + "\n", exit: r.ok ? 0 : 2 };
  } finally {
    process.chdir(cwd);
  }
}

function viaCli(c: GoldenCase, dir: string): Promise<{ stdout: string; stderr: string; exit: number | null }> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.AGENT_COLLAB_HUMAN_KEYS_JSON;
  delete env.WORKBENCH_HUMAN_KEYS_FILE;
  if (c.env) env.AGENT_COLLAB_HUMAN_KEYS_JSON = c.env.AGENT_COLLAB_HUMAN_KEYS_JSON;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(REPO, "bin/workbench.cjs"), ...c.args], { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", reject);
    child.on("close", (exit) => resolve({ stdout, stderr, exit }));
  });
}

describe("goal policy golden cases (the reference's stdout and exit code)", () => {
  it("cover every exit code, every section of the spec and both goal documents", () => {
    expect(new Set(CASES.map((c) => c.exit))).toEqual(new Set([0, 2, 3, 4]));
    expect(new Set(CASES.map((c) => c.spec.split(/[.a-z]/)[0]))).toEqual(new Set(["1", "2", "3", "4", "5", "6", "7", "8", "9"]));
    const reasons = CASES.filter((c) => c.command === "evaluate").flatMap((c) => (JSON.parse(c.stdout) as { reasons: string[] }).reasons.map((r) => r.replace(/[:=].*$/, "")));
    for (const r of [
      "slice_limit",
      "goal_limit",
      "human_gate",
      "human_authorization_required",
      "context_compaction_required",
      "completion_missing_acceptance_or_work_remains",
      "slice_needs_evidence_next_step_or_children_completion",
      "concurrency_exceeded",
      "evaluation_error",
      "limit_reached",
      "limit_exceeded",
      "checkpoint_required",
      "task_status",
    ]) {
      expect(reasons, r).toContain(r);
    }
  });

  it.each(CASES.map((c, i) => [c.name, c, i] as const))("library: %s", (_name, c, i) => {
    const got = viaLibrary(c, folderOf(c, i));
    expect(got.stdout).toBe(c.stdout);
    expect(got.exit).toBe(c.exit);
  });

  it("the CLI prints the same bytes and exits with the same code (every worked situation, envelope and validation case, and the first of each other group)", async () => {
    const results: { name: string; ok: boolean; detail: string }[] = [];
    let next = 0;
    // A few CLI processes at once: each spends most of its time starting up.
    const worker = async () => {
      for (;;) {
        const i = next++;
        if (i >= CLI_CASES.length) return;
        const c = CLI_CASES[i]!;
        const r = await viaCli(c, folderOf(c, 1000 + i));
        const ok = r.stdout === c.stdout && r.exit === c.exit;
        results.push({ name: c.name, ok, detail: ok ? "" : `exit ${r.exit} (want ${c.exit})\n${r.stdout}${r.stderr}` });
      }
    };
    await Promise.all([worker(), worker(), worker()]);
    const failed = results.filter((r) => !r.ok);
    expect(failed.map((f) => `${f.name}: ${f.detail}`)).toEqual([]);
    expect(results).toHaveLength(CLI_CASES.length);
  }, 600_000);
});
