import Link from "next/link";
import { headers } from "next/headers";
import { loadProjectOr404 } from "@/app/projects/[id]/load-project";
import { AgentActivityTable } from "@/components/mcp/agent-activity-table";
import { ProjectCrumbs } from "@/components/projects/project-crumbs";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { isTeamMode } from "@/lib/auth/config";
import { listAgentActivity } from "@/lib/collab/activity";
import { readEnv } from "@/lib/core/env";
import { listPackets } from "@/lib/packets/service";

export const dynamic = "force-dynamic";
export const metadata = { title: "Agent activity" };

const PAGE_SIZE = 50;

/** Where agents reach this server's MCP endpoint: the configured public URL, or the address this page was opened at. */
async function mcpEndpoint(): Promise<string> {
  const h = await headers();
  const origin = readEnv("WORKBENCH_PUBLIC_URL") ?? `${h.get("x-forwarded-proto") ?? "http"}://${h.get("x-forwarded-host") ?? h.get("host") ?? "127.0.0.1"}`;
  return new URL("/api/v1/mcp", origin).toString();
}

export default async function ActivityPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const project = await loadProjectOr404(id);
  const [{ activity, nextCursor }, active, archived] = await Promise.all([listAgentActivity(id, { limit: PAGE_SIZE }), listPackets(id), listPackets(id, { archived: true })]);
  const titles = Object.fromEntries([...active, ...archived].map((p) => [p.id, p.title]));
  const code = "rounded bg-muted px-1 font-mono text-xs text-fg";
  return (
    <div>
      <PageHeader
        crumbs={<ProjectCrumbs id={id} name={project.name} />}
        title="Agent activity"
        description="What agents did here through MCP: the packets and briefs they drafted and updated, the reviews they asked for and the approved handoffs they picked up. Newest first."
      />
      {activity.length === 0 ? (
        <EmptyState title="No agent activity yet">
          <p>
            Agents connect over MCP: <code className={code}>workbench mcp</code> on this machine (stdio), or Streamable HTTP at <code className={`${code} whitespace-nowrap`}>{await mcpEndpoint()}</code>
            {isTeamMode() ? (
              <>
                {" "}
                with a personal access token from{" "}
                <Link href="/account" className="underline">
                  your account
                </Link>
              </>
            ) : null}
            . Drafts, updates, review requests and handoffs they make in this project show here. The README&apos;s &ldquo;Agents: the MCP server&rdquo; has the client configuration; the tools are listed in the{" "}
            <Link href="/api-docs#tag-mcp" className="underline">
              API reference
            </Link>
            .
          </p>
        </EmptyState>
      ) : (
        <AgentActivityTable projectId={id} initial={activity} nextCursor={nextCursor} titles={titles} now={new Date().toISOString()} pageSize={PAGE_SIZE} />
      )}
    </div>
  );
}
