"use client";

import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { KeyRound, Trash2 } from "lucide-react";
import { CopyButton } from "@/components/context/copy-button";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Input, Label } from "@/components/ui/input";
import { Time } from "@/components/ui/time";
import type { TokenDto } from "@/lib/auth/types";
import { callApi, errorMessage } from "@/lib/api/client";
import { accountRoutes } from "@/lib/auth/schemas";
import { ConfirmButton, send } from "./confirm-button";
import { DataTable, type DataColumn } from "@/components/ui/data-table";

interface CreatedToken {
  id: string;
  name: string;
  token: string;
  expiresAt: string | null;
}

const EXPIRY = [
  { value: "30", label: "30 days" },
  { value: "90", label: "90 days" },
  { value: "365", label: "365 days" },
  { value: "never", label: "Never" },
] as const;

const select = "h-9 w-full rounded-md border border-border bg-surface px-2 text-sm focus-visible:outline-2 focus-visible:outline-accent";

/** Personal access tokens: for agents and the CLI (`Authorization: Bearer wb_…`). */
const TOKEN_COLUMNS: DataColumn[] = [
  { id: "name", header: "Name", sortable: true, cellClassName: "max-w-64 truncate font-medium" },
  { id: "token", header: "Token", cellClassName: "font-mono text-xs text-fg-muted" },
  { id: "created", header: "Created", sortable: true, cellClassName: "text-xs text-fg-muted" },
  { id: "expires", header: "Expires", sortable: true, cellClassName: "text-xs text-fg-muted" },
  { id: "used", header: "Last used", sortable: true, cellClassName: "text-xs text-fg-muted" },
  { id: "actions", header: "Actions", srOnlyHeader: true, align: "right" },
];

export function TokenManager({ tokens, publicUrl }: { tokens: TokenDto[]; publicUrl: string | null }) {
  const router = useRouter();
  const id = useId();
  const [name, setName] = useState("");
  const [expiry, setExpiry] = useState<(typeof EXPIRY)[number]["value"]>("90");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<CreatedToken | null>(null);
  const [origin, setOrigin] = useState(publicUrl ?? "");

  async function create(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const { token } = await callApi(accountRoutes.createToken, { body: { name: name.trim(), expiresInDays: expiry === "never" ? null : Number(expiry) } });
      setOrigin((publicUrl ?? window.location.origin).replace(/\/+$/, ""));
      setCreated(token);
      setName("");
      router.refresh();
      requestAnimationFrame(() => document.getElementById(`${id}-new`)?.focus());
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  async function revoke(token: TokenDto): Promise<string | null> {
    const message = await send(accountRoutes.revokeToken, { params: { tokenId: token.id } });
    if (!message) {
      if (created?.id === token.id) setCreated(null);
      router.refresh();
    }
    return message;
  }

  const curl = created ? `curl -H "Authorization: Bearer ${created.token}" ${origin}/api/v1/projects` : "";
  const now = Date.now();

  return (
    <div className="flex flex-col gap-4">
      {created ? (
        <section aria-labelledby={`${id}-new-title`} className="rounded-md border border-ok/40 bg-ok/10 p-4">
          <h3 id={`${id}-new-title`} className="text-sm font-semibold">
            Token “{created.name}” created
          </h3>
          <p className="mt-0.5 text-sm">
            Copy it now: <strong>you won&apos;t see it again.</strong> Only a hash is stored; if you lose it, revoke it and create another.
          </p>
          <div className="mt-3">
            <Label htmlFor={`${id}-new`}>Token</Label>
            <div className="flex gap-2">
              <Input id={`${id}-new`} readOnly value={created.token} className="font-mono" spellCheck={false} onFocus={(e) => e.currentTarget.select()} />
              <CopyButton text={created.token} label="Copy token" />
            </div>
          </div>
          <div className="mt-3">
            <p className="mb-1 text-xs font-medium text-fg-muted">Try it</p>
            <div className="flex items-start gap-2">
              <pre className="min-w-0 flex-1 rounded-md border border-border bg-surface px-3 py-2 font-mono text-xs break-all whitespace-pre-wrap">{curl}</pre>
              <CopyButton text={curl} label="Copy command" />
            </div>
          </div>
          <div className="mt-3 flex justify-end">
            <Button size="sm" onClick={() => setCreated(null)}>
              I have stored it
            </Button>
          </div>
        </section>
      ) : null}

      <form onSubmit={create} className="flex flex-col gap-3 sm:flex-row sm:items-end" aria-describedby={error ? `${id}-error` : undefined}>
        <div className="flex-1">
          <Label htmlFor={`${id}-name`}>Token name</Label>
          <Input id={`${id}-name`} name="name" required maxLength={64} placeholder="ci-agent" autoComplete="off" spellCheck={false} value={name} onChange={(e) => setName(e.target.value)} />
        </div>
        <div className="sm:w-40">
          <Label htmlFor={`${id}-expiry`}>Expires after</Label>
          <select id={`${id}-expiry`} className={select} value={expiry} onChange={(e) => setExpiry(e.target.value as typeof expiry)}>
            {EXPIRY.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </div>
        <Button type="submit" variant="primary" disabled={busy || name.trim() === ""} aria-busy={busy}>
          <KeyRound aria-hidden className="size-4" />
          {busy ? "Creating…" : "Create token"}
        </Button>
      </form>
      <div id={`${id}-error`} role="alert" aria-live="assertive" className="text-sm text-danger empty:hidden">
        {error}
      </div>

      {tokens.length === 0 ? (
        <p className="text-sm text-fg-muted">No tokens yet. Create one for each agent or machine, so each can be revoked alone.</p>
      ) : (
        <DataTable
          label="Your personal access tokens"
          keyboard={false}
          columns={TOKEN_COLUMNS}
          rows={tokens.map((t) => {
            const expired = t.expiresAt !== null && new Date(t.expiresAt).getTime() <= now;
            return {
              key: t.id,
              sort: { name: t.name, created: t.createdAt, expires: t.expiresAt, used: t.lastUsedAt },
              cells: {
                name: t.name || <span className="text-fg-muted">(unnamed)</span>,
                token: t.start ? `${t.start}…` : "—",
                created: <Time iso={t.createdAt} />,
                expires: (
                  <>
                    {t.expiresAt ? <Time iso={t.expiresAt} /> : "never"}
                    {expired ? (
                      <Badge tone="danger" className="ml-1">
                        expired
                      </Badge>
                    ) : null}
                  </>
                ),
                used: t.lastUsedAt ? <Time iso={t.lastUsedAt} /> : "never",
                actions: (
                  <ConfirmButton
                    aria-label={`Revoke token ${t.name}`}
                    title={`Revoke “${t.name}”?`}
                    description="Agents and scripts using this token are refused from the next request on. This cannot be undone."
                    confirmLabel="Revoke token"
                    busyLabel="Revoking…"
                    onConfirm={() => revoke(t)}
                  >
                    <Trash2 aria-hidden className="size-4" /> Revoke
                  </ConfirmButton>
                ),
              },
            };
          })}
        />
      )}
    </div>
  );
}
