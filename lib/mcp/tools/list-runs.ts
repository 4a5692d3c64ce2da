import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { listRuns } from "../../deep-context/service";
import type { McpCallerContext } from "../context";
import { projectFor } from "../project";
import { guard, jsonResult } from "../result";
import { listRunsToolInput, listRunsToolOutput } from "../schemas";

export function registerListRunsTool(server: McpServer, ctx: McpCallerContext): void {
  server.registerTool(
    "list_runs",
    {
      title: "Deep-loop runs of a project",
      description:
        "The project's deep-loop runs (context, research, review) as GET /api/v1/projects/:id/runs lists them: id, loop type, spec folder, status, iterations, latest convergence decision, finding count and executors. Use a context run's id with get_findings or run_convergence. Needs the viewer role.",
      inputSchema: listRunsToolInput,
      outputSchema: listRunsToolOutput,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    ({ project }) =>
      guard(async () => {
        const p = await projectFor(ctx, project, "viewer");
        return jsonResult({ runs: await listRuns(p.id) });
      }),
  );
}
