import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { loaderForPath } from "../../moc/service";
import type { McpCallerContext } from "../context";
import { projectFolderFor } from "../project";
import { guard, textResult } from "../result";
import { contextLoaderPackToolInput } from "../schemas";

export function registerContextLoaderPackTool(server: McpServer, ctx: McpCallerContext): void {
  server.registerTool(
    "context_loader_pack",
    {
      title: "Context-loader pack",
      description:
        "The `<!-- context-loader:v1 -->` pack the project's docs/ map of content yields for a prompt (at most 6 files, 3,000 tokens), as `workbench loader` prints it; empty when the prompt is trivial or nothing is relevant.",
      inputSchema: contextLoaderPackToolInput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ project, prompt }) => guard(async () => textResult((await loaderForPath(await projectFolderFor(ctx, project, "viewer"), prompt)).pack)),
  );
}
