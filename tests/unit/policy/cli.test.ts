import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GOLDEN_KEYS_JSON, goldenCase } from "../../helpers/goal-golden";
import { CHECKPOINT_SAMPLE, POLICY_SAMPLE, REPO, SECRET, checkpoint, decision, samplePolicy, signingPolicy } from "./fixtures";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "wb-policy-cli-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
const write = (name: string, value: unknown) => {
  const p = path.join(tmp, name);
  fs.writeFileSync(p, typeof value === "string" ? value : JSON.stringify(value, null, 2));
  return p;
};

function workbench(args: string[], env: Record<string, string> = {}, timeout = 60_000) {
  const base = { ...process.env };
  delete base.AGENT_COLLAB_HUMAN_KEYS_JSON;
  delete base.WORKBENCH_HUMAN_KEYS_FILE;
  return spawnSync(process.execPath, [path.join(REPO, "bin/workbench.cjs"), ...args], {
    encoding: "utf8",
    timeout,
    cwd: REPO,
    env: { ...base, ...env },
  });
}

/** What `agent-collab policy evaluate --json` (CPython) prints for the reference samples. */
const PYTHON_SAMPLE_OUTPUT = `{
  "checkpoint_required": false,
  "decision": "continue",
  "effective_limits": {
    "checkpoint_transcript_bytes": 100000,
    "max_child_result_words": 250,
    "max_children_per_parent": 4,
    "max_concurrency": 2,
    "max_cycles": 3,
    "max_elapsed_seconds": 600,
    "max_memory_digest_tokens": 500,
    "max_no_evidence_cycles": 2,
    "max_parent_summary_tokens": 1000,
    "max_same_failure_retries": 2,
    "max_task_packet_tokens": 2000,
    "max_tool_calls": 20,
    "max_transcript_bytes": 200000
  },
  "observed_metrics": {
    "active_children": 0,
    "child_result_words": 0,
    "children_spawned": 0,
    "cycle": 0,
    "elapsed_seconds": 0,
    "last_checkpoint_transcript_bytes": 0,
    "memory_digest_tokens": 0,
    "no_evidence_cycles": 0,
    "parent_summary_tokens": 0,
    "same_failure_retries": 0,
    "task_packet_tokens": 0,
    "tool_calls": 0,
    "transcript_bytes": 0
  },
  "policy_hash": "5877bd688392c3d5f549794a89d6f632b93fe7185470bdf02d1c02f2410bfd2c",
  "policy_id": "example-policy",
  "reasons": [],
  "schema_version": 1,
  "spawn_allowed": true
}
`;

describe("workbench policy evaluate", () => {
  it("prints what the harness prints and exits 0 on continue", () => {
    const r = workbench(["policy", "evaluate", "--policy", POLICY_SAMPLE, "--checkpoint", CHECKPOINT_SAMPLE, "--json"]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe(PYTHON_SAMPLE_OUTPUT);
    const human = workbench(["policy", "evaluate", "--policy", POLICY_SAMPLE, "--checkpoint", CHECKPOINT_SAMPLE]);
    expect(human.status).toBe(0);
    expect(human.stdout.split("\n").slice(0, 4)).toEqual([
      "Policy decision: continue (exit 0)",
      "policy: example-policy  hash: 5877bd688392c3d5f549794a89d6f632b93fe7185470bdf02d1c02f2410bfd2c",
      "spawn allowed: yes  checkpoint required: no",
      "reasons: none",
    ]);
  }, 60_000);

  it("exits 3 on checkpoint and 4 on stop", () => {
    const growth = write("growth.json", checkpoint({ transcript_bytes: 120000, last_checkpoint_transcript_bytes: 10000 }));
    const r3 = workbench(["policy", "evaluate", "--policy", POLICY_SAMPLE, "--checkpoint", growth]);
    expect(r3.status).toBe(3);
    expect(r3.stdout).toContain("  - checkpoint_required:transcript_growth=110000:checkpoint_transcript_bytes=100000");
    const done = write("done.json", checkpoint({ status: "completed" }));
    const r4 = workbench(["policy", "evaluate", "--policy", POLICY_SAMPLE, "--checkpoint", done, "--json"]);
    expect(r4.status).toBe(4);
    expect(JSON.parse(r4.stdout).reasons).toEqual(["task_status:completed"]);
  }, 60_000);

  it("never exits 2: unreadable or invalid input is a fail-closed stop (4)", () => {
    const missing = workbench(["policy", "evaluate", "--policy", path.join(tmp, "nowhere.policy.json"), "--checkpoint", CHECKPOINT_SAMPLE, "--json"]);
    expect(missing.status).toBe(4);
    expect(JSON.parse(missing.stdout)).toMatchObject({ policy_id: "nowhere.policy", policy_hash: null, decision: "stop", spawn_allowed: false, effective_limits: {}, observed_metrics: {} });
    const invalid = write("invalid.json", { ...samplePolicy(), limits: { ...samplePolicy().limits, max_cycles: "3" } });
    const r = workbench(["policy", "evaluate", "--policy", invalid, "--checkpoint", CHECKPOINT_SAMPLE, "--json"]);
    expect(r.status).toBe(4);
    expect(JSON.parse(r.stdout).reasons).toEqual(["evaluation_error:policy.limits.max_cycles must be a non-negative integer"]);
  }, 60_000);

  it("verifies human decisions with the key from AGENT_COLLAB_HUMAN_KEYS_JSON", () => {
    const pol = write("signing.json", signingPolicy());
    const cp = write("declined.json", checkpoint({ decisions: [decision("H2", "decline", "2026-08-31T00:00:00Z")] }));
    const signed = workbench(["policy", "evaluate", "--policy", pol, "--checkpoint", cp, "--json"], { AGENT_COLLAB_HUMAN_KEYS_JSON: JSON.stringify({ owner: SECRET }) });
    expect(signed.status).toBe(4);
    expect(JSON.parse(signed.stdout).reasons).toEqual(["human_gate:H2:decline"]);
    const noKey = workbench(["policy", "evaluate", "--policy", pol, "--checkpoint", cp, "--json"]);
    expect(JSON.parse(noKey.stdout).reasons).toEqual(["evaluation_error:checkpoint.decisions[0] has no configured human authorization key: owner"]);
    expect(noKey.stdout + noKey.stderr).not.toContain(SECRET);
  }, 60_000);
});

describe("goal documents (schema_version 2)", () => {
  it("print the GoalDecision in words for people, and the reference's bytes with --json", () => {
    const c = goldenCase("worked: cycle at the slice cap, fresh evidence, next step, no child");
    const pol = write("goal.policy.json", c.policy);
    const cp = write("goal.checkpoint.json", c.checkpoint);
    const env = { AGENT_COLLAB_HUMAN_KEYS_JSON: GOLDEN_KEYS_JSON };
    const json = workbench(["policy", "evaluate", "--policy", pol, "--checkpoint", cp, "--json"], env);
    expect(json.status).toBe(3);
    expect(json.stdout).toBe(c.stdout);
    expect(json.stderr).toBe("");
    const human = workbench(["policy", "evaluate", "--policy", pol, "--checkpoint", cp], env);
    expect(human.status).toBe(3);
    const lines = human.stdout.split("\n");
    expect(lines.slice(0, 6)).toEqual([
      "Goal decision: checkpoint (exit 3)  scope: slice  auto-continue: yes",
      `policy: test-policy-goals  hash: ${JSON.parse(c.stdout).policy_hash}`,
      "spawn allowed: no  checkpoint required: yes",
      "reasons:",
      "  - slice_limit:cycle",
      "    Slice boundary: cycle reached max_cycles (3). This slice ends; its counts carry over into the goal totals.",
    ]);
    expect(human.stdout).toContain("goal totals: cycle=3, tool_calls=0, elapsed_seconds=0, children_spawned=0, input_tokens=unknown, cached_input_tokens=unknown, output_tokens=unknown, cost_microusd=unknown");

    // Validation of both goal documents, as the reference's policy validate / checkpoint validate.
    const v = workbench(["policy", "validate", "--policy", pol, "--checkpoint", cp]);
    expect(v.status).toBe(0);
    expect(v.stdout).toBe(`policy valid: ${pol} (policy_id test-policy-goals, policy_hash ${JSON.parse(c.stdout).policy_hash})\ncheckpoint valid: ${cp} (task_id task-1)\n`);
    const bad = write("bad-goal.json", c.checkpoint.replace('"slice_id": 0', '"slice_id": -1'));
    const cv = workbench(["checkpoint", "validate", "--checkpoint", bad]);
    expect(cv.status).toBe(2);
    expect(cv.stdout).toBe(`checkpoint invalid: ${bad}\n  - slice_id: expected nonnegative integer\n`);
    const cvJson = workbench(["checkpoint", "validate", "--checkpoint", cp, "--json"]);
    expect(JSON.parse(cvJson.stdout)).toEqual({ schema_version: 1, ok: true, kind: "checkpoint", path: cp, task_id: "task-1", errors: [] });
    // A missing --checkpoint is a usage error (exit 2), as the reference's argument parser has it; never a decision.
    const usage = workbench(["policy", "evaluate", "--policy", pol, "--json"]);
    expect([usage.status, usage.stdout]).toEqual([2, ""]);
    expect(usage.stderr).toContain("required option '--checkpoint <file>' not specified");
  }, 120_000);

  it("escape control characters and line breaks of file text in the human output", () => {
    const c = goldenCase("worked: cycle at the slice cap, fresh evidence, next step, no child");
    const pol = write("esc.policy.json", c.policy.replace('"policy_id": "test-policy-goals"', '"policy_id": "evil\\u001b[31m\\nforged: line"'));
    const cp = write("esc.checkpoint.json", c.checkpoint);
    const human = workbench(["policy", "evaluate", "--policy", pol, "--checkpoint", cp], { AGENT_COLLAB_HUMAN_KEYS_JSON: GOLDEN_KEYS_JSON });
    expect(human.stdout).not.toContain("\u001b");
    expect(human.stdout.split("\n").some((l) => l.startsWith("forged"))).toBe(false);
  }, 60_000);
});

describe("workbench policy validate", () => {
  it("exits 0 for a valid policy and 2 for an invalid one or an invalid checkpoint", () => {
    const ok = workbench(["policy", "validate", "--policy", POLICY_SAMPLE, "--json"]);
    expect(ok.status).toBe(0);
    expect(JSON.parse(ok.stdout)).toEqual({
      errors: [],
      kind: "policy",
      ok: true,
      path: POLICY_SAMPLE,
      policy_hash: "5877bd688392c3d5f549794a89d6f632b93fe7185470bdf02d1c02f2410bfd2c",
      policy_id: "example-policy",
      schema_version: 1,
    });
    const bad = write("bad.json", { ...samplePolicy(), limits: { ...samplePolicy().limits, max_concurrency: 9 } });
    const r = workbench(["policy", "validate", "--policy", bad]);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe(`policy invalid: ${bad}\n  - policy.limits.max_concurrency must be <= max_children_per_parent\n`);
    const badCp = write("bad-cp.json", checkpoint({ cycle: -1 }));
    const both = workbench(["policy", "validate", "--policy", POLICY_SAMPLE, "--checkpoint", badCp, "--json"]);
    expect(both.status).toBe(2);
    expect(JSON.parse(both.stdout)).toMatchObject({
      ok: false,
      results: [
        { kind: "policy", ok: true },
        { kind: "checkpoint", ok: false, errors: ["checkpoint.cycle must be a non-negative integer"] },
      ],
    });
  }, 60_000);
});

describe("files named on the command line that are not regular files", () => {
  // A named pipe would wait for a writer forever, a device never ends: each is refused at once.
  const fifo = path.join(tmp, "pipe.json");
  const sock = path.join(tmp, "s.sock");
  const server = net.createServer();
  beforeAll(async () => {
    execFileSync("mkfifo", [fifo]);
    await new Promise<void>((r) => server.listen(sock, r));
  });
  afterAll(() => new Promise((r) => server.close(r)));
  const notRegular = (p: string, what: string) => `cannot read JSON object ${p}: not a regular file (${what}): '${p}'`;

  it("evaluate: a fail-closed stop (exit 4) naming what the file is, never a hang", () => {
    const t0 = Date.now();
    const r = workbench(["policy", "evaluate", "--policy", fifo, "--checkpoint", CHECKPOINT_SAMPLE, "--json"], {}, 20_000);
    expect(r.status, r.stderr).toBe(4);
    expect(Date.now() - t0).toBeLessThan(20_000);
    expect(JSON.parse(r.stdout)).toMatchObject({ policy_id: "pipe", policy_hash: null, decision: "stop", reasons: [`evaluation_error:${notRegular(fifo, "a named pipe")}`] });
    const dev = workbench(["policy", "evaluate", "--policy", POLICY_SAMPLE, "--checkpoint", "/dev/zero"], {}, 20_000);
    expect(dev.status, dev.stderr).toBe(4);
    expect(dev.stdout).toContain(`  - evaluation_error:${notRegular("/dev/zero", "a device")}`);
  }, 60_000);

  it("validate: invalid (exit 2) for a pipe, a device, a socket or a folder, in the harness's wording where it has one", () => {
    const r = workbench(["policy", "validate", "--policy", POLICY_SAMPLE, "--checkpoint", fifo], {}, 20_000);
    expect(r.status, r.stderr).toBe(2);
    expect(r.stdout).toBe(
      `policy valid: ${POLICY_SAMPLE} (policy_id example-policy, policy_hash 5877bd688392c3d5f549794a89d6f632b93fe7185470bdf02d1c02f2410bfd2c)\ncheckpoint invalid: ${fifo}\n  - ${notRegular(fifo, "a named pipe")}\n`,
    );
    const dev = workbench(["policy", "validate", "--policy", "/dev/zero", "--json"], {}, 20_000);
    expect(dev.status, dev.stderr).toBe(2);
    expect(JSON.parse(dev.stdout)).toEqual({ errors: [notRegular("/dev/zero", "a device")], kind: "policy", ok: false, path: "/dev/zero", schema_version: 1 });
    const s = workbench(["policy", "validate", "--policy", sock, "--json"], {}, 20_000);
    expect(s.status, s.stderr).toBe(2);
    expect(JSON.parse(s.stdout).errors).toEqual([`cannot read JSON object ${sock}: [Errno 6] No such device or address: '${sock}'`]);
    const d = workbench(["policy", "validate", "--policy", tmp, "--json"], {}, 20_000);
    expect(d.status, d.stderr).toBe(2);
    expect(JSON.parse(d.stdout).errors).toEqual([`cannot read JSON object ${tmp}: [Errno 21] Is a directory: '${tmp}'`]);
  }, 90_000);
});
