import fs from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import type { AnyDecision } from "../../lib/policy/evaluate";
import type { ValidationOutput } from "../../lib/policy/validate-files";
import type { ReasonContext } from "../../lib/policy/reason-words";
import { stdout } from "../output";

/**
 * `workbench policy evaluate|validate` and `workbench checkpoint validate`, the harness's
 * `agent-collab policy ...` / `checkpoint validate` with its exit codes: evaluate 0 continue, 3
 * checkpoint, 4 stop (an unreadable or invalid input is a fail-closed stop, never 2); validate 0
 * valid, 2 invalid. `--json` prints what the harness prints (indent 2, sorted keys, UTF-8 kept),
 * byte for byte: a PolicyDecision v1 for a TaskCheckpoint v1, a GoalDecision v2 for a
 * GoalCheckpoint v2 under a goal policy (GOAL-POLICY.md).
 */
const EXIT_OK = 0;
const EXIT_INVALID = 2;

/** Project folders (a `.git` or `.coord` ancestor) of the files, which the key file must stay out of. */
function projectRootsOf(files: string[]): string[] {
  const roots = new Set<string>();
  for (const f of files) {
    let dir = path.dirname(path.resolve(f));
    for (;;) {
      if (fs.existsSync(path.join(dir, ".git")) || fs.existsSync(path.join(dir, ".coord"))) {
        roots.add(dir);
        break;
      }
      const up = path.dirname(dir);
      if (up === dir) break;
      dir = up;
    }
  }
  return [...roots];
}

export function formatDecision(d: AnyDecision, exitCode: number, formatNumber: (v: unknown) => string, words: (reason: string, ctx: ReasonContext) => string): string {
  const out: string[] = [];
  const goal = d.schema_version === 2 ? d : null;
  out.push(goal ? `Goal decision: ${d.decision} (exit ${exitCode})  scope: ${goal.scope}  auto-continue: ${goal.auto_continue ? "yes" : "no"}` : `Policy decision: ${d.decision} (exit ${exitCode})`);
  out.push(`policy: ${d.policy_id.replace(/\r?\n/g, "\\n")}  hash: ${d.policy_hash ?? "none"}`);
  out.push(`spawn allowed: ${d.spawn_allowed ? "yes" : "no"}  checkpoint required: ${d.checkpoint_required ? "yes" : "no"}`);
  if (d.reasons.length === 0) out.push("reasons: none");
  else {
    out.push("reasons:");
    const ctx = { totals: goal?.observed_metrics, limits: d.effective_limits };
    // A reason can quote file text (a gate name, a message): one line each, whatever it holds.
    const one = (t: string) => t.replace(/\r?\n/g, "\\n");
    for (const r of d.reasons) out.push(`  - ${one(r)}`, `    ${one(words(r, ctx))}`);
  }
  const limits = Object.entries(d.effective_limits);
  if (limits.length) out.push(`effective limits: ${limits.map(([k, v]) => `${k}=${v}`).join(", ")}`);
  const metrics = Object.entries(d.observed_metrics);
  if (metrics.length) out.push(`${goal ? "goal totals" : "observed"}: ${metrics.map(([k, v]) => `${k}=${v === null ? "unknown" : formatNumber(v)}`).join(", ")}`);
  return out.join("\n") + "\n";
}

/** Validation results as the harness prints them: its own object for one file, both under one object for two. */
function printValidation(results: ValidationOutput[], json: boolean | undefined, dumps: (v: unknown) => string): boolean {
  const ok = results.every((r) => r.ok);
  if (json) {
    const value = results.length === 1 ? results[0] : { schema_version: 1, ok, results };
    process.stdout.write(dumps(value) + "\n");
  } else {
    for (const r of results) {
      if (r.ok) stdout.line(`${r.kind} valid: ${r.path}${r.kind === "policy" ? ` (policy_id ${r.policy_id}, policy_hash ${r.policy_hash})` : ` (task_id ${r.task_id})`}`);
      else {
        stdout.line(`${r.kind} invalid: ${r.path}`);
        for (const m of r.errors) stdout.line(`  - ${m}`);
      }
    }
  }
  return ok;
}

export function registerPolicy(program: Command, setCode: (c: number) => void): void {
  const policy = program.command("policy").description("Validate an agent policy and evaluate a checkpoint against it (the agent-collab harness contract, goal policies included).");

  policy
    .command("evaluate")
    .description(
      "Decide continue / checkpoint / stop for a checkpoint under a policy: a TaskCheckpoint v1 under a policy v1 gives a PolicyDecision, a GoalCheckpoint v2 under a goal policy a GoalDecision. Exit 0 continue, 3 checkpoint, 4 stop; an unreadable or invalid input is a fail-closed stop (4).",
    )
    .requiredOption("--policy <file>", "policy JSON (v1, portable v1 or goal policy v2)")
    .requiredOption("--checkpoint <file>", "TaskCheckpoint v1 or GoalCheckpoint v2 JSON")
    .option("--json", "print the decision as JSON (as the harness prints it)")
    .action(async (opts: { policy: string; checkpoint: string; json?: boolean }) => {
      const { evaluatePolicyFiles, evaluateExitCode } = await import("../../lib/policy/evaluate");
      const { decisionJson } = await import("../../lib/policy/decision-json");
      const { reasonInWords } = await import("../../lib/policy/reason-words");
      const { loadHumanKeys } = await import("../../lib/memory/keys");
      const { pyNumberStr, PyFloat } = await import("../../lib/memory/canonical-json");
      const decision = evaluatePolicyFiles(opts.policy, opts.checkpoint, {
        loadKeys: () => loadHumanKeys({ projectRoots: projectRootsOf([opts.policy, opts.checkpoint]) }),
      });
      const code = evaluateExitCode(decision);
      if (opts.json) process.stdout.write(decisionJson(decision));
      else stdout.text(formatDecision(decision, code, (v) => (typeof v === "number" || v instanceof PyFloat ? pyNumberStr(v) : String(v)), reasonInWords));
      setCode(code);
    });

  policy
    .command("validate")
    .description("Validate a policy (v1, portable v1 or goal policy v2), and optionally a checkpoint. Exit 0 valid, 2 invalid.")
    .requiredOption("--policy <file>", "policy JSON (v1, portable v1 or goal policy v2)")
    .option("--checkpoint <file>", "also validate this checkpoint (TaskCheckpoint v1 or GoalCheckpoint v2)")
    .option("--json", "print the validation result as JSON (as the harness prints it)")
    .action(async (opts: { policy: string; checkpoint?: string; json?: boolean }) => {
      const { validatePolicyFile, validateCheckpointFile } = await import("../../lib/policy/validate-files");
      const { pyJsonDumps } = await import("../../lib/memory/canonical-json");
      const results = [validatePolicyFile(opts.policy), ...(opts.checkpoint !== undefined ? [validateCheckpointFile(opts.checkpoint)] : [])];
      const ok = printValidation(results, opts.json, (v) => pyJsonDumps(v, { indent: 2, sortKeys: true }));
      setCode(ok ? EXIT_OK : EXIT_INVALID);
    });

  const checkpoint = program.command("checkpoint").description("Validate a TaskCheckpoint v1 or GoalCheckpoint v2 (the agent-collab harness contract).");
  checkpoint
    .command("validate")
    .description("Validate a checkpoint (TaskCheckpoint v1 or GoalCheckpoint v2). Exit 0 valid, 2 invalid.")
    .requiredOption("--checkpoint <file>", "checkpoint JSON")
    .option("--json", "print the validation result as JSON (as the harness prints it)")
    .action(async (opts: { checkpoint: string; json?: boolean }) => {
      const { validateCheckpointFile } = await import("../../lib/policy/validate-files");
      const { pyJsonDumps } = await import("../../lib/memory/canonical-json");
      const ok = printValidation([validateCheckpointFile(opts.checkpoint)], opts.json, (v) => pyJsonDumps(v, { indent: 2, sortKeys: true }));
      setCode(ok ? EXIT_OK : EXIT_INVALID);
    });
}
