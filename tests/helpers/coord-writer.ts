/**
 * One human write to a project's `.coord/`, through the service entry the API routes call
 * (lib/memory/desk.ts), in a process of its own: the kill -9 tests (tests/db/kill-memory-apply,
 * tests/db/kill-gate-decision) preload tests/helpers/kill-switch.cjs and SIGKILL it at each step.
 *   apply  <projectId> <proposalId>                                        applyApprovedProposal
 *   decide <projectId> <proposalId> <decision> <keyId> <rationale>         decideProposal
 *   gate   <projectId> <taskId> <file> <gate> <decision> <keyId> <rationale>  decideGoalGate
 * Keys come from AGENT_COLLAB_HUMAN_KEYS_JSON, as the server's do. Prints one JSON line: the
 * result, or the error's code and message (exit code 1).
 */
import { closeDb } from "../../lib/db/client";
import { applyApprovedProposal, decideGoalGate, decideProposal } from "../../lib/memory/desk";

type Decision = "approve" | "decline" | "revise";

async function run(args: string[]): Promise<unknown> {
  const [op, projectId, ...rest] = args as [string, string, ...string[]];
  if (op === "apply") return { event: (await applyApprovedProposal(projectId, rest[0]!)).event };
  if (op === "decide") {
    const [proposalId, decision, keyId, rationale] = rest as [string, Decision, string, string];
    return { proposal: await decideProposal(projectId, proposalId, { decision, keyId, rationale }) };
  }
  if (op === "gate") {
    const [taskId, file, gate, decision, keyId, rationale] = rest as [string, string, string, Decision, string, string];
    return await decideGoalGate(projectId, taskId, { file, gate, decision, keyId, rationale });
  }
  throw new Error(`coord-writer: unknown operation ${op}`);
}

let code = 0;
try {
  process.stdout.write(JSON.stringify({ ok: true, result: await run(process.argv.slice(2)) }) + "\n");
} catch (e) {
  const err = e as { code?: string; message?: string };
  process.stdout.write(JSON.stringify({ ok: false, code: err.code ?? "THROWN", message: err.message ?? String(e) }) + "\n");
  code = 1;
}
await closeDb();
process.exit(code);
