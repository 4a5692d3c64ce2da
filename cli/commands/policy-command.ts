import fs from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import type { PolicyDecision } from "../../lib/policy/evaluate";

/**
 * `workbench policy evaluate|validate`, the harness's `agent-collab policy ...` with its exit
 * codes: evaluate 0 continue, 3 checkpoint, 4 stop (an unreadable or invalid input is a
 * fail-closed stop, never 2); validate 0 valid, 2 invalid. `--json` prints what the harness
 * prints (indent 2, sorted keys, UTF-8 kept), byte for byte.
 *
 * Goal documents (GoalCheckpoint v2, goal policies) are not evaluated (see lib/policy/goal-v2.ts):
 * the result stays the fail-closed one, and a note says so in plain words (on stderr with
 * `--json`, so stdout stays the harness's output).
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

/** Python's `str(Path(p))` for the `path` field of validate results. */
function pyPathStr(p: string): string {
  const abs = p.startsWith("/");
  const parts = p.split(/[/]+/).filter((s) => s !== "" && s !== ".");
  return (abs ? "/" : "") + parts.join("/") || (abs ? "/" : ".");
}

/** The files' JSON for goal-document notes; an unreadable file gives no note (its error is the output). */
async function goalNotes(policyPath: string, checkpointPath: string | undefined, command: "evaluate" | "validate"): Promise<string[]> {
  const { loadJsonObject } = await import("../../lib/policy/evaluate");
  const { goalInputNotes } = await import("../../lib/policy/goal-v2");
  const read = (p: string | undefined) => {
    try {
      return p === undefined ? undefined : loadJsonObject(p);
    } catch {
      return undefined;
    }
  };
  return goalInputNotes(read(policyPath), read(checkpointPath), command);
}

function printNotes(notes: string[], json: boolean | undefined): void {
  for (const n of notes) (json ? process.stderr : process.stdout).write(`note: ${n}\n`);
}

export function formatDecision(d: PolicyDecision, exitCode: number, formatNumber: (v: unknown) => string): string {
  const out: string[] = [];
  out.push(`Policy decision: ${d.decision} (exit ${exitCode})`);
  out.push(`policy: ${d.policy_id}  hash: ${d.policy_hash ?? "none"}`);
  out.push(`spawn allowed: ${d.spawn_allowed ? "yes" : "no"}  checkpoint required: ${d.checkpoint_required ? "yes" : "no"}`);
  if (d.reasons.length === 0) out.push("reasons: none");
  else {
    out.push("reasons:");
    for (const r of d.reasons) out.push(`  - ${r}`);
  }
  const limits = Object.entries(d.effective_limits);
  if (limits.length) out.push(`effective limits: ${limits.map(([k, v]) => `${k}=${v}`).join(", ")}`);
  const metrics = Object.entries(d.observed_metrics);
  if (metrics.length) out.push(`observed: ${metrics.map(([k, v]) => `${k}=${formatNumber(v)}`).join(", ")}`);
  return out.join("\n") + "\n";
}

interface ValidationOutput {
  schema_version: 1;
  ok: boolean;
  kind: "policy" | "checkpoint";
  path: string;
  policy_id?: string;
  policy_hash?: string;
  task_id?: string;
  errors: string[];
}

export function registerPolicy(program: Command, setCode: (c: number) => void): void {
  const policy = program.command("policy").description("Validate an agent policy and evaluate a TaskCheckpoint against it (the agent-collab harness contract).");

  policy
    .command("evaluate")
    .description("Decide continue / checkpoint / stop for a checkpoint under a policy. Exit 0 continue, 3 checkpoint, 4 stop; an unreadable or invalid input is a fail-closed stop (4).")
    .requiredOption("--policy <file>", "policy JSON (v1 or portable v1)")
    .requiredOption("--checkpoint <file>", "TaskCheckpoint v1 JSON (a GoalCheckpoint v2 is not evaluated: fail-closed stop)")
    .option("--json", "print the PolicyDecision as JSON (as the harness prints it)")
    .action(async (opts: { policy: string; checkpoint: string; json?: boolean }) => {
      const { evaluatePolicyFiles, evaluateExitCode } = await import("../../lib/policy/evaluate");
      const { loadHumanKeys } = await import("../../lib/memory/keys");
      const { pyJsonDumps, pyNumberStr, PyFloat } = await import("../../lib/memory/canonical-json");
      const decision = evaluatePolicyFiles(opts.policy, opts.checkpoint, {
        loadKeys: () => loadHumanKeys({ projectRoots: projectRootsOf([opts.policy, opts.checkpoint]) }),
      });
      const code = evaluateExitCode(decision);
      if (opts.json) process.stdout.write(pyJsonDumps(decision, { indent: 2, sortKeys: true }) + "\n");
      else process.stdout.write(formatDecision(decision, code, (v) => (typeof v === "number" || v instanceof PyFloat ? pyNumberStr(v) : String(v))));
      printNotes(await goalNotes(opts.policy, opts.checkpoint, "evaluate"), opts.json);
      setCode(code);
    });

  policy
    .command("validate")
    .description("Validate a policy (and optionally a checkpoint). Exit 0 valid, 2 invalid.")
    .requiredOption("--policy <file>", "policy JSON (v1 or portable v1)")
    .option("--checkpoint <file>", "also validate this TaskCheckpoint v1 JSON")
    .option("--json", "print the validation result as JSON (as the harness prints it)")
    .action(async (opts: { policy: string; checkpoint?: string; json?: boolean }) => {
      const { loadJsonObject } = await import("../../lib/policy/evaluate");
      const { validatePolicy, validateCheckpoint } = await import("../../lib/policy/validate");
      const { canonicalSha256, pyJsonDumps } = await import("../../lib/memory/canonical-json");
      const results: ValidationOutput[] = [];
      const message = (e: unknown) => (e instanceof Error ? e.message : String(e));
      try {
        const source = loadJsonObject(opts.policy);
        const p = validatePolicy(source);
        results.push({ schema_version: 1, ok: true, kind: "policy", path: pyPathStr(opts.policy), policy_id: p.policy_id, policy_hash: canonicalSha256(source), errors: [] });
      } catch (e) {
        results.push({ schema_version: 1, ok: false, kind: "policy", path: pyPathStr(opts.policy), errors: [message(e)] });
      }
      if (opts.checkpoint !== undefined) {
        try {
          const c = validateCheckpoint(loadJsonObject(opts.checkpoint));
          results.push({ schema_version: 1, ok: true, kind: "checkpoint", path: pyPathStr(opts.checkpoint), task_id: c.task_id, errors: [] });
        } catch (e) {
          results.push({ schema_version: 1, ok: false, kind: "checkpoint", path: pyPathStr(opts.checkpoint), errors: [message(e)] });
        }
      }
      const ok = results.every((r) => r.ok);
      if (opts.json) {
        // One file: the harness's own result object. Two: both, under one object.
        const value = results.length === 1 ? results[0] : { schema_version: 1, ok, results };
        process.stdout.write(pyJsonDumps(value, { indent: 2, sortKeys: true }) + "\n");
      } else {
        for (const r of results) {
          if (r.ok) process.stdout.write(`${r.kind} valid: ${r.path}${r.kind === "policy" ? ` (policy_id ${r.policy_id}, policy_hash ${r.policy_hash})` : ` (task_id ${r.task_id})`}\n`);
          else process.stdout.write(`${r.kind} invalid: ${r.path}\n${r.errors.map((m) => `  - ${m}\n`).join("")}`);
        }
      }
      printNotes(await goalNotes(opts.policy, opts.checkpoint, "validate"), opts.json);
      setCode(ok ? EXIT_OK : EXIT_INVALID);
    });
}
