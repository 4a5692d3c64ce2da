import Link from "next/link";
import { DataTable } from "@/components/ui/data-table";
import { loadProjectOr404 } from "@/app/projects/[id]/load-project";
import { NewPacketActions } from "@/components/packets/new-packet-actions";
import { ProjectCrumbs } from "@/components/projects/project-crumbs";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Time } from "@/components/ui/time";
import { listPackets } from "@/lib/packets/service";
import { TextLink } from "@/components/ui/text-link";

export const dynamic = "force-dynamic";
export const metadata = { title: "Packets & briefs" };

export default async function PacketsPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { id } = await params;
  const archived = (await searchParams).archived === "1";
  const project = await loadProjectOr404(id);
  const packets = await listPackets(id, { archived });
  return (
    <div>
      <PageHeader
        crumbs={<ProjectCrumbs id={id} name={project.name} />}
        title="Packets & briefs"
        description="Context Packets and Agent Briefs handed to agents. The seed's checks run as you type; emission is refused while a BLOCK finding stands."
        actions={<NewPacketActions projectId={id} />}
      />
      <nav aria-label="Packet lists" className="mb-3 flex gap-3 text-sm">
        <Link href={`/projects/${id}/packets`} aria-current={!archived ? "page" : undefined} className={archived ? "text-fg-muted hover:underline" : "font-medium"}>
          Active
        </Link>
        <Link href={`/projects/${id}/packets?archived=1`} aria-current={archived ? "page" : undefined} className={!archived ? "text-fg-muted hover:underline" : "font-medium"}>
          Archived
        </Link>
      </nav>
      {packets.length === 0 ? (
        <EmptyState title={archived ? "No archived packets" : "No packets yet"}>{archived ? "Archived packets show here." : "Start one from a template, or import a .md file."}</EmptyState>
      ) : (
        <DataTable
          label="Packets"
          columns={[
            { id: "title", header: "Title", cellClassName: "max-w-96 truncate" },
            { id: "kind", header: "Kind" },
            { id: "topic", header: "Topic" },
            { id: "revision", header: "Revision", cellClassName: "tabular-nums" },
            { id: "tokens", header: "Tokens", cellClassName: "tabular-nums" },
            { id: "gates", header: "Gates" },
            { id: "updated", header: "Updated", cellClassName: "text-xs text-fg-muted" },
          ]}
          rows={packets.map((p) => ({
            key: p.id,
            cells: {
              title: (
                <TextLink href={`/projects/${id}/packets/${p.id}`} className="font-medium">
                  {p.title}
                </TextLink>
              ),
              kind: p.kind === "brief" ? "Agent Brief" : "Context Packet",
              topic: p.topicSlug ? (
                <TextLink href={`/projects/${id}/topics/${encodeURIComponent(p.topicSlug)}`} className="font-mono text-xs">
                  {p.topicSlug}
                </TextLink>
              ) : (
                <span className="text-fg-muted">—</span>
              ),
              revision: (
                <>
                  r{p.headNumber}
                  {p.emittedNumber ? (
                    <Badge tone="ok" className="ml-1">
                      emitted r{p.emittedNumber}
                    </Badge>
                  ) : null}
                </>
              ),
              tokens: p.head?.tokenEstimate ?? "—",
              gates: (
                <>
                  {p.head ? p.head.blockCount ? <Badge tone="danger">{p.head.blockCount} BLOCK</Badge> : <Badge tone="ok">passes</Badge> : null}
                  {p.head?.warnCount ? (
                    <Badge tone="warn" className="ml-1">
                      {p.head.warnCount} WARN
                    </Badge>
                  ) : null}
                </>
              ),
              updated: <Time iso={p.updatedAt} />,
            },
          }))}
        />
      )}
    </div>
  );
}
