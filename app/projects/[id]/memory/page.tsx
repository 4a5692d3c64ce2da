import { pageProjectRole } from "@/app/_lib/page-access";
import { signableKeyIds } from "@/lib/auth/access";
import { SAMPLE_KEY_ID } from "@/lib/memory/sample-key";
import { roleAtLeast } from "@/lib/auth/roles";
import Link from "next/link";
import { DataTable } from "@/components/ui/data-table";
import { KeyboardList } from "@/components/ui/keyboard-list";
import { SavedViews } from "@/components/views/saved-views";
import { savedViews } from "@/lib/views/service";
import { loadProjectOr404 } from "@/app/projects/[id]/load-project";
import { EvidenceRefs } from "@/components/memory/evidence-refs";
import { BreakLockButton } from "@/components/memory/lock-actions";
import { ProposalActions } from "@/components/memory/proposal-actions";
import { OutcomeNotice } from "@/components/memory/outcome-notice";
import { ReadyToApply } from "@/components/memory/ready-to-apply";
import { ProjectCrumbs } from "@/components/projects/project-crumbs";
import { Badge } from "@/components/ui/badge";
import { Card, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Time } from "@/components/ui/time";
import { memoryDesk, taskEvaluations } from "@/lib/memory/desk";
import { LOCK_FILE, type LockStatus } from "@/lib/memory/lock";
import { applyBlockers, proposalOutcome, readyToApply } from "@/lib/memory/next-step";
import { TextLink } from "@/components/ui/text-link";
import { plural } from "@/lib/core/plural";

export const dynamic = "force-dynamic";
export const metadata = { title: "Memory & proposals" };

const STATES = [
  { id: "pending", state: "proposed", label: "Pending" },
  { id: "approved", state: "approved", label: "Approved" },
  { id: "rejected", state: "rejected", label: "Rejected" },
] as const;

const DECISION_TONE = { continue: "ok", checkpoint: "warn", stop: "danger" } as const;

/** "3 min", "2 h 5 min": a lock's age at a glance. */
function age(ms: number): string {
  const min = Math.floor(ms / 60_000);
  if (min < 1) return `${Math.floor(ms / 1000)} s`;
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  return h < 48 ? `${h} h ${min % 60} min` : `${Math.floor(h / 24)} days`;
}
const STATUS_TONE = { current: "ok", superseded: "neutral", resolved: "neutral", archived: "neutral", deleted: "danger" } as const;

export default async function MemoryPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { id } = await params;
  const query = await searchParams;
  const show = STATES.find((s) => s.id === query.state) ?? STATES[0];
  const project = await loadProjectOr404(id);
  const [desk, views] = await Promise.all([memoryDesk(id), savedViews(id, "proposals")]);
  const tasks = await taskEvaluations(id);
  const { snapshot } = desk;
  const { principal, role } = await pageProjectRole(id);
  // Team mode: only an approver signs, and only with the keys bound to their own account.
  const own = await signableKeyIds(principal);
  const mayApprove = roleAtLeast(role, "approver");
  const pinned = mayApprove ? desk.signers.filter((s) => s.pinned && (!own || own.includes(s.keyId))).map((s) => s.keyId) : [];
  const cannotSign = !mayApprove
    ? `Your role on this project is ${role}; signing a decision needs approver.`
    : own && pinned.length === 0
      ? "No signing key that the policy pins is bound to your account; an instance admin binds one on the Admin page."
      : null;
  const proposals = snapshot.proposals.filter((p) => p.proposal.state === show.state);
  const count = (state: string) => snapshot.proposals.filter((p) => p.proposal.state === state).length;
  const memory = snapshot.memory;
  // After a decision or an apply (ProposalActions reloads with its proposal id): what happened, and what is next.
  const one = (v: string | string[] | undefined) => (typeof v === "string" ? v : undefined);
  const outcome = proposalOutcome(snapshot.proposals, { decided: one(query.decided), applied: one(query.applied) });
  // The Approved tab lists them itself, Apply included.
  const ready = show.state === "approved" ? [] : readyToApply(snapshot.proposals);
  const locks: { file: string; status: LockStatus }[] = [...(snapshot.lock ? [{ file: LOCK_FILE, status: snapshot.lock }] : []), ...snapshot.proposalLocks];

  return (
    <div className="space-y-6">
      <PageHeader
        crumbs={<ProjectCrumbs id={id} name={project.name} />}
        title="Memory & proposals"
        description="Durable decisions live in .coord/memory.yml; only a signed human approval turns a proposal into an event there."
        actions={
          <Link href={`/projects/${id}/memory/draft?kind=primer`} className="rounded-md border border-border px-3 py-1.5 text-sm hover:bg-muted">
            Write a session primer
          </Link>
        }
      />

      {snapshot.errors.length ? (
        <Card>
          <CardHeader title={`Files with problems (${snapshot.errors.length})`} description="Each was skipped or read in part; everything else is shown." />
          <ul className="space-y-1 p-4 text-sm" aria-label="Coord problems">
            {snapshot.errors.map((e, i) => (
              <li key={i}>
                <span className="font-mono text-xs">{e.file}</span>
                {e.line ? <span className="text-xs text-fg-muted">:{e.line}</span> : null}
                {e.field ? <span className="ml-1 text-xs text-fg-muted">field {e.field}</span> : null} — {e.message}
              </li>
            ))}
          </ul>
        </Card>
      ) : null}

      {locks.length ? (
        <Card>
          <CardHeader title={`Locks (${locks.length})`} description="A lock held for more than a moment was probably left by a crash. It is removed only when this host confirms its owner process is gone." />
          <ul className="divide-y divide-border text-sm" aria-label="Locks">
            {locks.map(({ file, status }) => (
              <li key={file} className="flex flex-wrap items-start justify-between gap-3 p-4" data-lock={file}>
                <div className="space-y-1">
                  <p>
                    <span className="font-mono text-xs">{file}</span> {status.stale ? <Badge tone="danger">looks stale</Badge> : <Badge tone="warn">held</Badge>}
                  </p>
                  {status.record ? (
                    <dl className="grid grid-cols-[8rem_1fr] gap-x-3 text-xs" aria-label={`Lock record of ${file}`}>
                      <dt className="text-fg-muted">owner</dt>
                      <dd className="font-mono">{status.record.owner}</dd>
                      <dt className="text-fg-muted">created_at</dt>
                      <dd>
                        <Time iso={status.record.created_at} />
                      </dd>
                      <dt className="text-fg-muted">task_id</dt>
                      <dd className="font-mono">{status.record.task_id}</dd>
                      <dt className="text-fg-muted">proposal_id</dt>
                      <dd className="font-mono">{status.record.proposal_id}</dd>
                      <dt className="text-fg-muted">age</dt>
                      <dd>{age(status.ageMs)}</dd>
                    </dl>
                  ) : (
                    <p className="text-xs text-fg-muted">The lock file holds no readable record (cut off while being created); age {age(status.ageMs)}.</p>
                  )}
                  <p className="text-xs text-fg-muted">
                    Owner {status.ownerAlive === true ? "is running on this host" : status.ownerAlive === false ? "is gone (its process no longer runs on this host)" : "cannot be checked from this host"}
                    {status.staleReasons.length ? ` · ${status.staleReasons.join(", ").replace(/_/g, " ")}` : ""}
                  </p>
                </div>
                {status.ownerAlive === false ? (
                  mayApprove ? (
                    <BreakLockButton projectId={id} file={file} />
                  ) : (
                    <p className="text-xs text-fg-muted">An approver can remove it.</p>
                  )
                ) : (
                  <p className="max-w-xs text-xs text-fg-muted">Not removable here: its owner is not confirmed gone. Check the holder, then delete the file by hand if it is.</p>
                )}
              </li>
            ))}
          </ul>
        </Card>
      ) : null}

      <Card>
        <CardHeader
          title="Proposals"
          description={
            desk.keyProblem ??
            `Signing keys on this server: ${pinned.map((k) => `human:${k}`).join(", ")} (pinned in ${desk.policyFile}).${
              pinned.includes(SAMPLE_KEY_ID) ? ` human:${SAMPLE_KEY_ID} is the bundled sample's sample-only key: it is public, proves nothing about who approved, and signs only for this sample in local mode.` : ""
            }`
          }
        />
        {outcome ? <OutcomeNotice outcome={outcome} eventHref={outcome.eventId ? `#${outcome.eventId}` : null} /> : null}
        {ready.length ? <ReadyToApply projectId={id} proposals={ready} mayApply={mayApprove} /> : null}
        <nav aria-label="Proposal states" className="flex gap-4 border-b border-border px-4 py-2 text-sm">
          {STATES.map((s) => (
            <Link key={s.id} href={`/projects/${id}/memory?state=${s.id}`} aria-current={s.id === show.id ? "page" : undefined} className={s.id === show.id ? "font-medium" : "text-fg-muted hover:underline"}>
              {s.label} ({count(s.state)})
            </Link>
          ))}
        </nav>
        <div className="border-b border-border px-4 py-2">
          <SavedViews projectId={id} surface="proposals" views={views} suggestedName={`${show.label} proposals`} path={`/projects/${id}/memory?state=${show.id}`} />
        </div>
        {proposals.length === 0 ? (
          <div className="p-4">
            <EmptyState title={`No ${show.label.toLowerCase()} proposals`}>Agents write proposals to .coord/memory-proposals/.</EmptyState>
          </div>
        ) : (
          <KeyboardList label="Proposals list">
            <ul className="divide-y divide-border" aria-label="Proposals">
              {proposals.map((entry) => {
                const { file, proposal: p, evidence, appliedAs, verification, actionHash, replayedWith } = entry;
                const cannotApply = p.state === "approved" && appliedAs === null ? applyBlockers(entry) : [];
                const noRefs = p.action.evidence_refs.length === 0;
                const missing = evidence.filter((e) => e.status !== "present");
                const why = noRefs ? "it cites no evidence refs" : missing.length ? `${plural(missing.length, "evidence ref")} ${missing.length === 1 ? "does" : "do"} not resolve` : null;
                return (
                  <li key={p.proposal_id} data-nav-row tabIndex={-1} className="space-y-2 p-4 text-sm focus-visible:bg-muted" data-proposal={p.proposal_id}>
                    <div className="flex flex-wrap items-center gap-2">
                      <Badge tone="accent">{p.action.operation}</Badge>
                      <strong>{p.action.summary}</strong>
                      {p.action.target_ref ? <span className="text-xs text-fg-muted">target {p.action.target_ref}</span> : null}
                      {appliedAs ? <Badge tone="ok">applied as {appliedAs}</Badge> : null}
                      {replayedWith.length ? <Badge tone="danger">replayed approval</Badge> : null}
                    </div>
                    {replayedWith.length ? (
                      <p className="text-xs text-danger" role="note">
                        Its signed decision is also on {replayedWith.join(", ")}: one approval belongs to one proposal, so neither is decided or applied here until the copy is removed.
                      </p>
                    ) : null}
                    <p className="text-xs text-fg-muted">
                      <span className="font-mono">{file}</span> · from task <span className="font-mono">{p.source_task}</span> · <Time iso={p.created_at} /> · action hash{" "}
                      <span className="font-mono">{actionHash.slice(0, 12)}…</span>
                    </p>
                    <div>
                      <p className="text-xs font-medium">Evidence</p>
                      {noRefs ? <p className="text-xs text-danger">No evidence refs: this proposal stays pending and cannot be approved.</p> : null}
                      <EvidenceRefs evidence={evidence} />
                    </div>
                    {p.decision ? (
                      <div className="rounded-md border border-border p-2 text-xs" aria-label="Decision record">
                        <span className="font-medium">{p.decision.decision}</span> by <span className="font-mono">{p.decision.actor}</span> at <Time iso={p.decision.timestamp} /> — {p.decision.rationale}
                        <span className="ml-2">
                          {verification ? (
                            verification.ok ? (
                              <Badge tone="ok">signature verified</Badge>
                            ) : (
                              <Badge tone="danger" title={verification.failures.map((f) => f.message).join("; ")}>
                                signature rejected
                              </Badge>
                            )
                          ) : (
                            <Badge>signature not checked (no key)</Badge>
                          )}
                        </span>
                      </div>
                    ) : null}
                    <ProposalActions
                      projectId={id}
                      proposalId={p.proposal_id}
                      state={p.state}
                      applied={appliedAs !== null}
                      signers={pinned}
                      approvable={why === null}
                      whyNotApprovable={why}
                      cannotSign={cannotSign}
                      blocked={replayedWith.length ? "A replayed approval is neither decided nor applied." : null}
                      applyBlocked={cannotApply.length ? cannotApply.join("; ") : null}
                    />
                  </li>
                );
              })}
            </ul>
          </KeyboardList>
        )}
      </Card>

      <Card>
        <CardHeader
          title="Current memory"
          description={
            memory
              ? `${memory.file}: ${memory.view.current.length.toLocaleString("en")} current of ${plural(memory.events.length, "event")}; ${plural(memory.view.openQuestions.length, "open question")}.`
              : "No .coord/memory.yml yet."
          }
        />
        {memory?.view.conflicts.length ? (
          <ul className="space-y-0.5 px-4 pt-3 text-xs text-danger" aria-label="Memory conflicts">
            {memory.view.conflicts.map((c, i) => (
              <li key={i}>
                {c.kind}: {c.message} ({c.eventIds.join(", ")})
              </li>
            ))}
          </ul>
        ) : null}
        {memory ? (
          <ol className="divide-y divide-border" aria-label="Memory timeline">
            {memory.view.entries.map((e) => (
              <li key={e.event.event_id} id={e.event.event_id} className="scroll-mt-4 target:bg-accent/10 grid grid-cols-[4rem_8rem_1fr] gap-3 px-4 py-2 text-sm">
                <span className="font-mono text-xs">{e.event.event_id}</span>
                <span className="flex flex-col gap-1">
                  <Badge>{e.event.event_type}</Badge>
                  <Badge tone={STATUS_TONE[e.status]}>{e.status}</Badge>
                </span>
                <span>
                  {e.event.summary}
                  <span className="block text-xs text-fg-muted">
                    <Time iso={e.event.created_at} /> · {e.event.actor} · approved by {e.event.approval.actor}
                    {e.supersededBy.length ? ` · superseded by ${e.supersededBy.join(", ")}` : ""}
                    {e.resolvedBy.length ? ` · resolved by ${e.resolvedBy.join(", ")}` : ""}
                    {e.event.source_proposal_id ? ` · from proposal ${e.event.source_proposal_id.slice(0, 8)}` : ""}
                    {e.approvalCheck === "mismatch" ? " · approval hash does not match this event" : ""}
                  </span>
                </span>
              </li>
            ))}
          </ol>
        ) : null}
      </Card>

      <Card>
        <CardHeader title="Tasks" description="Each checkpoint evaluated against the project's policy (a GoalCheckpoint against the goal policy): continue, checkpoint or stop." />
        {tasks.length === 0 ? (
          <div className="p-4">
            <EmptyState title="No task checkpoints">Agents write them to .coord/checkpoints/.</EmptyState>
          </div>
        ) : (
          <DataTable
            label="Tasks"
            primary={false}
            className="rounded-none border-0"
            columns={[
              { id: "task", header: "Task", srOnlyHeader: true, className: "px-4" },
              { id: "checkpoint", header: "Checkpoint", srOnlyHeader: true, className: "px-4", cellClassName: "text-xs text-fg-muted" },
              { id: "decision", header: "Decision", srOnlyHeader: true, className: "px-4" },
              { id: "reasons", header: "Reasons", srOnlyHeader: true, className: "px-4", cellClassName: "text-xs text-fg-muted" },
              { id: "brief", header: "Brief", srOnlyHeader: true, align: "right", className: "px-4" },
            ]}
            rows={tasks.map((t) => ({
              key: t.file,
              cells: {
                task: (
                  <TextLink href={`/projects/${id}/tasks/${encodeURIComponent(t.taskId)}`} className="font-mono">
                    {t.taskId}
                  </TextLink>
                ),
                checkpoint:
                  t.version === 1 ? "TaskCheckpoint v1" : `GoalCheckpoint v2, goal ${t.goal?.goalId ?? "?"}${t.outcome.scope ? ` · scope ${t.outcome.scope}` : ""}${t.outcome.auto_continue ? " · auto-continue" : ""}`,
                decision: <Badge tone={DECISION_TONE[t.outcome.decision]}>{t.outcome.decision}</Badge>,
                reasons: t.outcome.reasons.join("; ") || "within every limit",
                brief: (
                  <TextLink href={`/projects/${id}/memory/draft?kind=brief&task=${encodeURIComponent(t.taskId)}`} className="text-xs">
                    Bounded brief
                  </TextLink>
                ),
              },
            }))}
          />
        )}
      </Card>
    </div>
  );
}
