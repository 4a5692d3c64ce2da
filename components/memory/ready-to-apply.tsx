import type { CoordProposal } from "@/lib/memory/coord-types";
import { applyBlockers } from "@/lib/memory/next-step";
import { Badge } from "@/components/ui/badge";
import { Time } from "@/components/ui/time";
import { ProposalActions } from "./proposal-actions";

/**
 * Approved proposals that are not in memory yet, each with its Apply button (or what stands in
 * its way), shown above the proposal states so an approval never leaves the person without its
 * next step.
 */
export function ReadyToApply({ projectId, proposals, mayApply }: { projectId: string; proposals: CoordProposal[]; mayApply: boolean }) {
  return (
    <section aria-labelledby="ready-to-apply" className="border-b border-border bg-accent/5">
      <h3 id="ready-to-apply" className="px-4 pt-3 text-sm font-semibold">
        Approved — ready to apply ({proposals.length})
      </h3>
      <p className="px-4 text-xs text-fg-muted">Approved and signed, but not in .coord/memory.yml until applied: Apply re-checks the action hash, the signature and the evidence, then appends one event.</p>
      <ul className="divide-y divide-border" aria-label="Approved, ready to apply">
        {proposals.map((p) => {
          const blockers = applyBlockers(p);
          const d = p.proposal.decision;
          return (
            <li key={p.proposal.proposal_id} className="space-y-1.5 px-4 py-3 text-sm" data-proposal={p.proposal.proposal_id}>
              <div className="flex flex-wrap items-center gap-2">
                <Badge tone="accent">{p.proposal.action.operation}</Badge>
                <strong>{p.proposal.action.summary}</strong>
                {p.proposal.action.target_ref ? <span className="text-xs text-fg-muted">target {p.proposal.action.target_ref}</span> : null}
              </div>
              {d ? (
                <p className="text-xs text-fg-muted" aria-label="Decision record">
                  approved by <span className="font-mono">{d.actor}</span> at <Time iso={d.timestamp} /> — {d.rationale}{" "}
                  {p.verification?.ok ? <Badge tone="ok">signature verified</Badge> : p.verification ? <Badge tone="danger">signature rejected</Badge> : <Badge>signature not checked (no key)</Badge>}
                </p>
              ) : null}
              {mayApply ? (
                <ProposalActions
                  projectId={projectId}
                  proposalId={p.proposal.proposal_id}
                  state="approved"
                  applied={false}
                  signers={[]}
                  approvable={false}
                  whyNotApprovable={null}
                  applyBlocked={blockers.length ? blockers.join("; ") : null}
                />
              ) : (
                <p className="text-xs text-fg-muted">An approver applies it.{blockers.length ? ` It cannot be applied yet: ${blockers.join("; ")}.` : ""}</p>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
