"use client";

import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { Link2, Unlink } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Label } from "@/components/ui/input";
import { accountRoutes } from "@/lib/auth/schemas";
import { ConfirmButton, send } from "./confirm-button";
import { DataTable } from "@/components/ui/data-table";
import { EmailInput } from "./email-input";

export interface KeyBinding {
  keyId: string;
  userId: string;
  email: string;
}

const select = "h-9 w-full rounded-md border border-border bg-surface px-2 font-mono text-sm focus-visible:outline-2 focus-visible:outline-accent";

/**
 * Approver signing keys loaded on this server (ids only) and the account each is bound to: an
 * approver signs only with a key bound to them.
 */
export function ApproverKeysAdmin({ keyIds, bindings, emails }: { keyIds: string[]; bindings: KeyBinding[]; emails: string[] }) {
  const router = useRouter();
  const id = useId();
  const boundTo = new Map(bindings.map((b) => [b.keyId, b]));
  const unbound = keyIds.filter((k) => !boundTo.has(k));
  // Bindings whose key is no longer loaded still restrict nothing useful, but should be visible.
  const stale = bindings.filter((b) => !keyIds.includes(b.keyId));
  const rows = [...keyIds.map((k) => ({ keyId: k, loaded: true, binding: boundTo.get(k) ?? null })), ...stale.map((b) => ({ keyId: b.keyId, loaded: false, binding: b }))];

  const [keyId, setKeyId] = useState(unbound[0] ?? "");
  const [email, setEmail] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const chosen = unbound.includes(keyId) ? keyId : (unbound[0] ?? "");

  async function bind(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    const message = await send(accountRoutes.bindApproverKey, { body: { keyId: chosen, email: email.trim() } });
    setBusy(false);
    if (message) {
      setError(message);
      return;
    }
    setEmail("");
    router.refresh();
  }

  async function unbind(k: string): Promise<string | null> {
    const message = await send(accountRoutes.unbindApproverKey, { params: { keyId: k } });
    if (!message) router.refresh();
    return message;
  }

  return (
    <div className="flex flex-col gap-4">
      {rows.length === 0 ? (
        <p className="text-sm text-fg-muted">
          No approver keys are loaded. They come from <code className="font-mono">AGENT_COLLAB_HUMAN_KEYS_JSON</code> or the file named by <code className="font-mono">WORKBENCH_HUMAN_KEYS_FILE</code>, read when the
          server starts.
        </p>
      ) : (
        <DataTable
          label="Approver keys and their accounts"
          keyboard={false}
          columns={[
            { id: "key", header: "Key id", sortable: true, cellClassName: "font-mono text-xs" },
            { id: "bound", header: "Bound to", sortable: true },
            { id: "actions", header: "Actions", srOnlyHeader: true, align: "right" },
          ]}
          rows={rows.map((r) => ({
            key: r.keyId,
            sort: { key: r.keyId, bound: r.binding?.email },
            cells: {
              key: (
                <>
                  {r.keyId}
                  {r.loaded ? null : (
                    <Badge tone="warn" className="ml-2 font-sans" title="Bound, but this server did not load the key">
                      not loaded
                    </Badge>
                  )}
                </>
              ),
              bound: r.binding ? r.binding.email : <span className="text-fg-muted">not bound: nobody can sign with it</span>,
              actions: r.binding ? (
                <ConfirmButton
                  aria-label={`Unbind key ${r.keyId} from ${r.binding.email}`}
                  title={`Unbind ${r.keyId}?`}
                  description={`${r.binding.email} can no longer sign proposal decisions with this key. Signatures already made stay valid.`}
                  confirmLabel="Unbind key"
                  busyLabel="Unbinding…"
                  onConfirm={() => unbind(r.keyId)}
                >
                  <Unlink aria-hidden className="size-4" /> Unbind
                </ConfirmButton>
              ) : null,
            },
          }))}
        />
      )}

      {unbound.length > 0 ? (
        <form onSubmit={bind} className="flex flex-col gap-3 sm:flex-row sm:items-end" aria-describedby={error ? `${id}-error` : undefined}>
          <div className="sm:w-56">
            <Label htmlFor={`${id}-key`}>Key id</Label>
            <select id={`${id}-key`} className={select} value={chosen} onChange={(e) => setKeyId(e.target.value)}>
              {unbound.map((k) => (
                <option key={k} value={k}>
                  {k}
                </option>
              ))}
            </select>
          </div>
          <div className="flex-1">
            <Label htmlFor={`${id}-email`}>Approver&apos;s account email</Label>
            <EmailInput id={`${id}-email`} list={`${id}-emails`} value={email} onChange={(e) => setEmail(e.target.value)} />
            <datalist id={`${id}-emails`}>
              {emails.map((e) => (
                <option key={e} value={e} />
              ))}
            </datalist>
          </div>
          <Button type="submit" variant="primary" disabled={busy || email.trim() === ""} aria-busy={busy}>
            <Link2 aria-hidden className="size-4" />
            {busy ? "Binding…" : "Bind key"}
          </Button>
        </form>
      ) : keyIds.length > 0 ? (
        <p className="text-sm text-fg-muted">Every loaded key is bound. Unbind one to give it to someone else.</p>
      ) : null}
      <div id={`${id}-error`} role="alert" aria-live="assertive" className="text-sm text-danger empty:hidden">
        {error}
      </div>
    </div>
  );
}
