"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { SignerSelect } from "./signer-select";
import { RationaleInput } from "./rationale-input";
import { ActionMessage } from "@/components/ui/action-message";
import { callApi, errorMessage } from "@/lib/api/client";
import { memoryRoutes } from "@/lib/memory/schemas";

/**
 * Approve, decline or revise a proposal with a server-held key, or apply an approved one.
 * The browser names a key id; the server signs (the secret never reaches the page). After a
 * decision or an apply the page is reloaded with `decided` or `applied` naming the proposal, and
 * says there what happened and what comes next (the proposal, and these buttons, move on).
 */
export function ProposalActions({
  projectId,
  proposalId,
  state,
  applied,
  signers,
  approvable,
  whyNotApprovable,
  cannotSign = null,
  blocked = null,
  applyBlocked = null,
}: {
  projectId: string;
  proposalId: string;
  state: "proposed" | "approved" | "rejected";
  applied: boolean;
  signers: string[];
  approvable: boolean;
  whyNotApprovable: string | null;
  /** Team mode: why this person cannot sign (their role, or no key bound to their account). */
  cannotSign?: string | null;
  /** Why nothing may be done with this proposal at all (a replayed approval); the server refuses too. */
  blocked?: string | null;
  /** Why applying this approved proposal would be refused now (the server checks again). */
  applyBlocked?: string | null;
}) {
  const router = useRouter();
  const pathname = usePathname();
  const search = useSearchParams();
  const [keyId, setKeyId] = useState(signers[0] ?? "");
  const [rationale, setRationale] = useState("");
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ tone: "ok" | "danger"; text: string } | null>(null);

  const params = { id: projectId, proposalId };

  async function post(call: () => Promise<unknown>, done: string, outcome: "decided" | "applied") {
    setBusy(true);
    setMessage(null);
    try {
      await call();
      setMessage({ tone: "ok", text: done });
      const q = new URLSearchParams(search.toString());
      q.delete("decided");
      q.delete("applied");
      q.set(outcome, proposalId);
      const next = `${pathname}?${q.toString()}`;
      if (next === `${pathname}?${search.toString()}`) router.refresh();
      else router.replace(next, { scroll: false });
    } catch (e) {
      setMessage({ tone: "danger", text: errorMessage(e) });
    } finally {
      setBusy(false);
    }
  }

  if (blocked) return <p className="border-t border-border pt-2 text-xs text-danger">{blocked}</p>;
  if (state === "approved") {
    return (
      <div className="space-y-1">
        {applied ? null : (
          <Button
            size="sm"
            variant="primary"
            disabled={busy || applyBlocked !== null}
            title={applyBlocked ?? undefined}
            onClick={() => void post(() => callApi(memoryRoutes.apply, { params }), "Applied: one event appended to .coord/memory.yml.", "applied")}
          >
            Apply to memory.yml
          </Button>
        )}
        {applied || !applyBlocked ? null : (
          <p className="text-xs text-danger" role="note">
            Cannot be applied yet: {applyBlocked}.
          </p>
        )}
        <ActionMessage message={message} />
      </div>
    );
  }
  if (state !== "proposed") return null;
  const decide = (decision: "approve" | "decline" | "revise", done: string) => void post(() => callApi(memoryRoutes.decide, { params, body: { decision, rationale, keyId } }), done, "decided");
  if (signers.length === 0) {
    return (
      <p className="border-t border-border pt-2 text-xs text-warn">
        {cannotSign ?? <>No approver key on this server can sign under the project&apos;s policy: decisions need one (see the README, &quot;Approver keys&quot;).</>}
      </p>
    );
  }
  return (
    <div className="space-y-2 border-t border-border pt-2">
      <div className="flex flex-wrap items-center gap-2 text-xs">
        <SignerSelect signers={signers} value={keyId} onChange={setKeyId} />
      </div>
      <RationaleInput label="Rationale" value={rationale} onChange={setRationale} />
      <div className="flex flex-wrap gap-2">
        <Button size="sm" variant="primary" disabled={busy || !approvable || !keyId || !rationale.trim()} title={whyNotApprovable ?? undefined} onClick={() => decide("approve", "Approved and signed.")}>
          Approve
        </Button>
        <Button size="sm" disabled={busy || !keyId || !rationale.trim()} onClick={() => decide("revise", "Sent back for revision (not an approval).")}>
          Revise
        </Button>
        <Button size="sm" variant="danger" disabled={busy || !keyId || !rationale.trim()} onClick={() => decide("decline", "Declined.")}>
          Decline
        </Button>
      </div>
      {!approvable && whyNotApprovable ? <p className="text-xs text-fg-muted">Cannot approve: {whyNotApprovable}</p> : null}
      <ActionMessage message={message} />
    </div>
  );
}
