import { pageProjectRole } from "@/app/_lib/page-access";
import { loadProjectOr404 } from "@/app/projects/[id]/load-project";
import { AddMemberForm, MemberControls } from "@/components/account/members-editor";
import { ProjectCrumbs } from "@/components/projects/project-crumbs";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Card, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Time } from "@/components/ui/time";
import { isTeamMode } from "@/lib/auth/config";
import { ROLE_GRANTS, ROLES, type Role } from "@/lib/auth/roles";
import { listMembers } from "@/lib/auth/service";
import { DataTable } from "@/components/ui/data-table";

export const dynamic = "force-dynamic";
export const metadata = { title: "Members" };

const ROLE_TONE: Record<Role, BadgeTone> = { viewer: "neutral", editor: "accent", approver: "warn", admin: "ok" };

function RolesLegend() {
  return (
    <Card>
      <CardHeader title="Roles" description="Each role can do everything the ones above it can." />
      <table className="w-full text-sm">
        <caption className="sr-only">What each role may do</caption>
        <thead className="sr-only">
          <tr>
            <th scope="col">Role</th>
            <th scope="col">Adds</th>
          </tr>
        </thead>
        <tbody>
          {ROLES.map((r, i) => (
            <tr key={r} className={i > 0 ? "border-t border-border" : undefined}>
              <th scope="row" className="w-32 px-4 py-2 text-left font-normal">
                <Badge tone={ROLE_TONE[r]}>{r}</Badge>
              </th>
              <td className="px-4 py-2 text-fg-muted">{ROLE_GRANTS[r]}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  );
}

export default async function MembersPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const project = await loadProjectOr404(id);
  const { principal, role } = await pageProjectRole(id);
  const crumbs = <ProjectCrumbs id={id} name={project.name} />;

  if (!isTeamMode() || principal.kind === "local") {
    return (
      <div className="space-y-6">
        <PageHeader crumbs={crumbs} title="Members" description="Who may see and change this project, and in which role." />
        <EmptyState title="No members in local mode">
          Local mode serves one person on this machine, who holds every role. Roles and members exist in team mode: start the Workbench with <code className="font-mono text-xs">WORKBENCH_MODE=team</code> and a{" "}
          <code className="font-mono text-xs">WORKBENCH_AUTH_SECRET</code>.
        </EmptyState>
        <RolesLegend />
      </div>
    );
  }

  const members = await listMembers(id);
  const canManage = role === "admin";
  const isMember = members.some((m) => m.userId === principal.userId);
  return (
    <div className="space-y-6">
      <PageHeader
        crumbs={crumbs}
        title="Members"
        description={
          <>
            Who may see and change this project. Your role: <Badge tone={ROLE_TONE[role]}>{role}</Badge>
            {principal.isAdmin && !isMember ? " (as instance admin)" : null}
          </>
        }
      />
      {canManage ? (
        <Card>
          <CardHeader title="Add a member" />
          <div className="p-4">
            <AddMemberForm projectId={id} />
          </div>
        </Card>
      ) : null}
      {members.length === 0 ? (
        <EmptyState title="No members yet">{canManage ? "Add people above by the email of their account." : "Only instance admins see this project until its admins add members."}</EmptyState>
      ) : (
        <DataTable
          label={`Members of ${project.name}`}
          keyboard={false}
          columns={[
            { id: "name", header: "Name", sortable: true, cellClassName: "max-w-56 truncate font-medium" },
            { id: "email", header: "Email", sortable: true, cellClassName: "max-w-72 truncate" },
            { id: "since", header: "Member since", sortable: true, cellClassName: "text-xs text-fg-muted" },
            { id: "role", header: "Role", align: canManage ? "right" : "left" },
          ]}
          rows={members.map((m) => {
            const self = m.userId === principal.userId;
            return {
              key: m.userId,
              sort: { name: m.name, email: m.email, since: m.since },
              cells: {
                name: (
                  <>
                    {m.name}
                    {self ? <span className="ml-1 text-xs font-normal text-fg-muted">(you)</span> : null}
                  </>
                ),
                email: m.email,
                since: <Time iso={m.since} />,
                role: canManage ? <MemberControls key={`${m.userId}:${m.role}`} projectId={id} member={m} isSelf={self} /> : <Badge tone={ROLE_TONE[m.role]}>{m.role}</Badge>,
              },
            };
          })}
        />
      )}
      <RolesLegend />
    </div>
  );
}
