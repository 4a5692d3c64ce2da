"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { SignerSelect } from "@/components/memory/signer-select";
import { RationaleInput } from "@/components/memory/rationale-input";
import { ActionMessage } from "@/components/ui/action-message";
import { callApi, errorMessage } from "@/lib/api/client";
import { memoryRoutes } from "@/lib/memory/schemas";

/**
 * A human's decision at a goal gate, signed on the server with a key the goal policy pins (as
 * for proposals: the browser names a key id, the secret never reaches the page). The decision
 * is appended to the checkpoint's task and the page re-evaluates.
 */
export function GateDecisionForm({
  projectId,
  taskId,
  file,
  gates,
  signers,
  cannotSign,
  pendingActionHash,
}: {
  projectId: string;
  taskId: string;
  file: string;
  /** Gates the task already has decisions for (offered first). */
  gates: string[];
  signers: string[];
  /** Why this person cannot sign here (role, no key bound, no key on the server), when they cannot. */
  cannotSign: string | null;
  /** The action a decision binds to; none means nothing can be signed. */
  pendingActionHash: string | null;
}) {
  const router = useRouter();
  const [keyId, setKeyId] = useState(signers[0] ?? "");
  const [gate, setGate] = useState(gates[0] ?? "");
  const [rationale, setRationale] = useState("");
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ tone: "ok" | "danger"; text: string } | null>(null);

  if (pendingActionHash === null) {
    return <p className="text-xs text-fg-muted">The task names no pending action (task.pending_action_hash), so there is no action a gate decision could bind to.</p>;
  }
  if (cannotSign || signers.length === 0) return <p className="text-xs text-warn">{cannotSign ?? "No approver key on this server can sign under the goal policy."}</p>;

  async function decide(decision: "approve" | "decline" | "revise", done: string) {
    setBusy(true);
    setMessage(null);
    try {
      await callApi(memoryRoutes.gateDecision, { params: { id: projectId, taskId }, body: { file, gate, decision, rationale, keyId } });
      setMessage({ tone: "ok", text: done });
      setRationale("");
      router.refresh();
    } catch (e) {
      setMessage({ tone: "danger", text: errorMessage(e) });
    } finally {
      setBusy(false);
    }
  }

  const ready = !busy && keyId !== "" && gate.trim() !== "" && rationale.trim() !== "";
  const listId = `gates-${file}`;
  return (
    <div className="space-y-2" aria-label="Sign a gate decision">
      <div className="flex flex-wrap items-center gap-3 text-xs">
        <label>
          Gate <input className="h-8 rounded-md border border-border bg-surface px-2 font-mono text-sm" list={listId} value={gate} onChange={(e) => setGate(e.target.value)} aria-label="Gate" maxLength={200} />
          <datalist id={listId}>
            {gates.map((g) => (
              <option key={g} value={g} />
            ))}
          </datalist>
        </label>
        <SignerSelect signers={signers} value={keyId} onChange={setKeyId} />
        <span className="text-fg-muted">
          binds to action <span className="font-mono">{pendingActionHash.slice(0, 12)}…</span>
        </span>
      </div>
      <RationaleInput label="Gate rationale" value={rationale} onChange={setRationale} />
      <div className="flex flex-wrap gap-2">
        <Button size="sm" variant="primary" disabled={!ready} onClick={() => void decide("approve", `Approved gate ${gate} and signed.`)}>
          Approve gate
        </Button>
        <Button size="sm" disabled={!ready} onClick={() => void decide("revise", `Sent gate ${gate} back for revision.`)}>
          Revise
        </Button>
        <Button size="sm" variant="danger" disabled={!ready} onClick={() => void decide("decline", `Declined gate ${gate}.`)}>
          Decline gate
        </Button>
      </div>
      <ActionMessage message={message} />
    </div>
  );
}
