/**
 * A separate process applying one proposal, for the concurrency and crash tests:
 *   node --import tsx apply-worker.ts <projectRoot> <proposalId> <normal|crash-after-lock|crash-before-rename> [barrierFile]
 * Waits for the barrier file (so every worker races at once), then prints one JSON line.
 * The crash modes SIGKILL the process at that point: no finally block, no cleanup.
 */
import fs from "node:fs";
import path from "node:path";
import { applyProposal } from "../../../lib/memory/apply";
import { HumanKeys } from "../../../lib/memory/keys";
import { validatePolicy } from "../../../lib/policy/validate";

const [root, proposalId, mode, barrier] = process.argv.slice(2) as [string, string, string, string | undefined];
const keys = new HumanKeys(JSON.parse(process.env.TEST_HUMAN_KEYS_JSON ?? "{}") as Record<string, string>);
const policy = validatePolicy(JSON.parse(fs.readFileSync(path.join(root, ".coord", "policy.json"), "utf8")));
const die = () => process.kill(process.pid, "SIGKILL");
const hooks = mode === "crash-after-lock" ? { afterLock: die } : mode === "crash-before-rename" ? { beforeRename: die } : {};

if (barrier) {
  fs.writeFileSync(`${barrier}.ready.${process.pid}`, "");
  // No deadline of its own: a worker that went ahead alone would race nobody. The test opens the
  // barrier once every worker waits at it, and kills a worker that is still here after a minute.
  while (!fs.existsSync(barrier)) await new Promise((r) => setTimeout(r, 2));
}
try {
  const r = await applyProposal(root, proposalId, { keys, policy, taskId: `worker-${process.pid}`, hooks });
  process.stdout.write(JSON.stringify({ ok: true, eventId: r.event.event_id }) + "\n");
} catch (e) {
  const err = e as { code?: string; message?: string };
  process.stdout.write(JSON.stringify({ ok: false, code: err.code ?? "THROWN", message: err.message }) + "\n");
}
