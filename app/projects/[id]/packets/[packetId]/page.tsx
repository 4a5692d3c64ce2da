import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { pageProjectRole } from "@/app/_lib/page-access";
import { loadProjectOr404 } from "@/app/projects/[id]/load-project";
import { roleAtLeast } from "@/lib/auth/roles";
import { PacketEditor } from "@/components/packets/packet-editor";
import { PacketTitle, PacketTitleControls, PacketTitleProvider } from "@/components/packets/packet-title";
import { PacketRevisions } from "@/components/packets/packet-revisions";
import { ProjectCrumbs } from "@/components/projects/project-crumbs";
import { Badge } from "@/components/ui/badge";
import { Card, CardHeader } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { AgentName } from "@/components/mcp/agent-name";
import { ResourceUri } from "@/components/mcp/resource-uri";
import { packetUri } from "@/lib/mcp/uris";
import { isWorkbenchError } from "@/lib/core/errors";
import { readEnv } from "@/lib/core/env";
import { getPacket, listRevisions } from "@/lib/packets/service";

export const dynamic = "force-dynamic";
export const metadata = { title: "Packet" };

export default async function PacketPage({ params }: { params: Promise<{ id: string; packetId: string }> }) {
  const { id, packetId } = await params;
  const project = await loadProjectOr404(id);
  const { role } = await pageProjectRole(id);
  const packet = await getPacket(id, packetId).catch((e: unknown) => {
    if (isWorkbenchError(e) && e.code === "NOT_FOUND") notFound();
    throw e;
  });
  const revisions = await listRevisions(id, packetId);
  const head = revisions[0];
  // The co-editing server listens next to the dashboard (workbench serve starts both).
  const collabPort = readEnv("WORKBENCH_COLLAB_PORT");
  const h = await headers();
  const host = (h.get("host") ?? "127.0.0.1").replace(/:\d+$/, "");
  // Behind TLS the page may only open a secure socket (and the token must not travel in clear).
  const secure = h.get("x-forwarded-proto") === "https" || (readEnv("WORKBENCH_PUBLIC_URL") ?? "").startsWith("https:");
  const collabUrl = collabPort ? `${secure ? "wss" : "ws"}://${host.includes(":") && !host.startsWith("[") ? `[${host}]` : host}:${collabPort}` : null;
  return (
    <PacketTitleProvider projectId={id} packet={packet} canEdit={roleAtLeast(role, "editor")}>
      <div className="space-y-6">
        <PageHeader
          crumbs={<ProjectCrumbs id={id} name={project.name} extra={[{ href: `/projects/${id}/packets`, label: "Packets & briefs" }]} />}
          title={<PacketTitle />}
          actions={<PacketTitleControls />}
          description={
            <span className="flex flex-wrap items-center gap-2">
              <Badge>{packet.kind === "brief" ? "Agent Brief" : "Context Packet"}</Badge>
              {packet.topicSlug ? <span>topic {packet.topicSlug}</span> : null}
              {packet.archived ? <Badge tone="warn">archived</Badge> : null}
              {head?.agentName ? (
                <span data-testid="head-agent">
                  r{head.number} by <AgentName name={head.agentName} actor={head.author} />
                </span>
              ) : null}
            </span>
          }
        />
        <ResourceUri uri={packetUri(id, packetId)} className="-mt-4" />
        <PacketEditor projectId={id} packet={packet} collabUrl={collabUrl} canEdit={roleAtLeast(role, "editor")} />
        <Card>
          <CardHeader title="Revisions" description="Every save is a revision. View one, or compare two." />
          <div className="p-4">
            <PacketRevisions projectId={id} packetId={packetId} revisions={revisions} />
          </div>
        </Card>
      </div>
    </PacketTitleProvider>
  );
}
