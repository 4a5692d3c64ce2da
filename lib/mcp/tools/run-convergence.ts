import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WorkbenchError } from "../../core/errors";
import { ProjectFs } from "../../core/project-fs";
import { getRun } from "../../db/repositories/runs";
import { askRunViews } from "../../deep-context/view-host";
import { mayUsePaths, type McpCallerContext } from "../context";
import { projectFor } from "../project";
import { guard, jsonResult } from "../result";
import { runConvergenceToolInput, runConvergenceToolOutput } from "../schemas";

/**
 * The folder to evaluate and the file layer to read it through: the spec folder as given
 * (confined to the repository holding it), or the indexed run's packet inside its project
 * (confined to the project).
 */
async function packetFolder(ctx: McpCallerContext, args: { specFolder?: string; project?: string; runId?: string }): Promise<{ folder: string; rootPath: string | null }> {
  const { specFolder, project, runId } = args;
  if (specFolder !== undefined) {
    if (project !== undefined || runId !== undefined) throw new WorkbenchError("INVALID_INPUT", "specFolder: give either specFolder, or project and runId, not both.");
    // A path reads the server's disk: as for registering a folder, only local mode and instance admins.
    if (!mayUsePaths(ctx)) throw new WorkbenchError("FORBIDDEN", "specFolder: only an instance administrator can read a folder on the server; give project and runId.");
    return { folder: specFolder, rootPath: null };
  }
  if (project === undefined && runId === undefined) throw new WorkbenchError("INVALID_INPUT", "specFolder: give a spec folder, or project and runId.");
  if (project === undefined || runId === undefined) throw new WorkbenchError("INVALID_INPUT", `${project === undefined ? "project" : "runId"}: give both project and runId (or a specFolder).`);
  const p = await projectFor(ctx, project, "viewer");
  let run;
  try {
    run = await getRun(p.id, runId);
  } catch (e) {
    if (e instanceof WorkbenchError && e.code === "NOT_FOUND") throw new WorkbenchError("NOT_FOUND", `runId: project ${p.name} has no run "${runId}".`);
    throw e;
  }
  if (run.loopType !== "context") throw new WorkbenchError("INVALID_INPUT", `runId: run "${runId}" is a ${run.loopType} loop; convergence is computed for deep-context runs.`);
  const fs = await ProjectFs.open(p.rootPath);
  return { folder: fs.resolve(run.relPath), rootPath: p.rootPath };
}

export function registerRunConvergenceTool(server: McpServer, ctx: McpCallerContext): void {
  server.registerTool(
    "run_convergence",
    {
      title: "Convergence of a deep-context run",
      description:
        "The five convergence signals, composite score, decision (CONTINUE / STOP_ALLOWED / STOP_BLOCKED) and blockers of a deep-context run, plus the host loop's stop rules replayed over its state log: the JSON `workbench converge <spec-folder> --json` prints. Give specFolder, or project and runId for a run the Workbench has indexed.",
      inputSchema: runConvergenceToolInput,
      outputSchema: runConvergenceToolOutput,
      annotations: { readOnlyHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ variant, ...target }) =>
      guard(async () => {
        const { folder, rootPath } = await packetFolder(ctx, target);
        // Computed where the run views are (a large packet's convergence is seconds of CPU).
        return jsonResult(await askRunViews<"convergence">({ op: "convergence", folder, rootPath, variant }));
      }),
  );
}
