import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ProjectFs } from "../../core/project-fs";
import { projectPolicyFile } from "../../memory/desk";
import { loadHumanKeys } from "../../memory/keys";
import { jsonObjectFromBytes } from "../../policy/evaluate";
import { isGoalDocument } from "../../policy/goal-validate";
import type { McpCallerContext } from "../context";
import { projectFor } from "../project";
import { guard, jsonResult } from "../result";
import { evaluateCheckpointToolInput, evaluateCheckpointToolOutput } from "../schemas";
import { decisionResult, evaluatePair, type PolicyPair } from "./evaluate-policy";

const isInline = (ref: string) => ref.startsWith("{");

/** A document given inline or as a file of the project (read through the project's confined file layer). */
function source(pfs: ProjectFs, ref: string, inlineName: string): PolicyPair["policy"] {
  return isInline(ref) ? { name: inlineName, bytes: () => Buffer.from(ref, "utf8") } : { name: ref, bytes: () => pfs.readBytesSync(ref, { kind: "json" }) };
}

/** The checkpoint's version when it can be read (the default policy depends on it); 1 otherwise, and the evaluation fails closed on it. */
function versionOf(checkpoint: PolicyPair["checkpoint"]): 1 | 2 {
  try {
    return isGoalDocument(jsonObjectFromBytes(checkpoint.bytes(), checkpoint.name)) ? 2 : 1;
  } catch {
    return 1;
  }
}

export function registerEvaluateCheckpointTool(server: McpServer, ctx: McpCallerContext): void {
  server.registerTool(
    "evaluate_checkpoint",
    {
      title: "May the agent continue? (a checkpoint under the project's policy)",
      description:
        "continue / checkpoint / stop for your checkpoint under a project's policy, exactly as `workbench policy evaluate --policy <policy> --checkpoint <checkpoint> --json` decides it (a PolicyDecision v1 for a TaskCheckpoint v1, a GoalDecision v2 with scope and auto_continue for a GoalCheckpoint v2), with its exit code (0 continue, 3 checkpoint, 4 stop). Nothing is written. The checkpoint and the policy are each JSON text (starting with {) or a project-relative file such as .coord/checkpoint.json; without policy, the project's own policy for the checkpoint's version is used (.coord/policy.json first), as the task page picks it. An invalid or mismatched pair is a fail-closed stop. Needs the viewer role.",
      inputSchema: evaluateCheckpointToolInput,
      outputSchema: evaluateCheckpointToolOutput,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    ({ project, checkpoint, policy }) =>
      guard(async () => {
        const p = await projectFor(ctx, project, "viewer");
        const pfs = await ProjectFs.open(p.rootPath);
        const cp = source(pfs, checkpoint, "checkpoint.json");
        const policyFile = policy === undefined ? await projectPolicyFile(p.id, versionOf(cp)) : isInline(policy) ? "inline" : policy;
        const pol: PolicyPair["policy"] =
          policy !== undefined
            ? source(pfs, policy, "policy.json")
            : policyFile !== null
              ? source(pfs, policyFile, "policy.json")
              : {
                  name: "policy.json",
                  bytes: () => {
                    throw new Error("no policy file in .coord/");
                  },
                };
        const d = evaluatePair({ checkpoint: cp, policy: pol, loadKeys: () => loadHumanKeys({ projectRoots: [p.rootPath] }) });
        return jsonResult({ ...decisionResult(d), policy_file: policyFile });
      }),
  );
}
