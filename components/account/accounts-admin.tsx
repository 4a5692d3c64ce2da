"use client";

import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { UserPlus } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Input, Label } from "@/components/ui/input";
import { Time } from "@/components/ui/time";
import type { AccountDto } from "@/lib/auth/types";
import { accountRoutes } from "@/lib/auth/schemas";
import { ConfirmButton, send } from "./confirm-button";
import { DataTable } from "@/components/ui/data-table";
import { EmailInput } from "./email-input";

/** Every account, with instance-admin switches. */
export function AccountsTable({ accounts, selfId }: { accounts: AccountDto[]; selfId: string }) {
  const router = useRouter();
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function setAdmin(a: AccountDto, isAdmin: boolean): Promise<string | null> {
    setBusy(a.id);
    setError(null);
    const message = await send(accountRoutes.setAdmin, { params: { userId: a.id }, body: { isAdmin } });
    setBusy(null);
    if (message) return message;
    // Without admin rights this page is gone: go home instead of refreshing into a not-found.
    if (a.id === selfId && !isAdmin) window.location.assign("/");
    else router.refresh();
    return null;
  }

  return (
    <div className="flex flex-col gap-3">
      <div role="alert" aria-live="assertive" className="text-sm text-danger empty:hidden">
        {error}
      </div>
      <DataTable
        label="Accounts"
        keyboard={false}
        columns={[
          { id: "name", header: "Name", sortable: true, cellClassName: "max-w-56 truncate font-medium" },
          { id: "email", header: "Email", sortable: true, cellClassName: "max-w-72 truncate" },
          { id: "created", header: "Created", sortable: true, cellClassName: "text-xs text-fg-muted" },
          { id: "admin", header: "Instance admin" },
        ]}
        rows={accounts.map((a) => ({
          key: a.id,
          sort: { name: a.name, email: a.email, created: a.createdAt },
          cells: {
            name: (
              <>
                {a.name}
                {a.id === selfId ? <span className="ml-1 text-xs font-normal text-fg-muted">(you)</span> : null}
              </>
            ),
            email: a.email,
            created: <Time iso={a.createdAt} />,
            admin: (
              <div className="flex items-center gap-2">
                {a.isAdmin ? <Badge tone="accent">admin</Badge> : <span className="text-xs text-fg-muted">no</span>}
                {a.isAdmin && a.id === selfId ? (
                  <ConfirmButton
                    aria-label="Give up your instance admin rights"
                    title="Give up your admin rights?"
                    description="You keep your project roles, but lose this page and the projects you are not a member of. Another admin can give the rights back."
                    confirmLabel="Remove my admin rights"
                    busyLabel="Removing…"
                    onConfirm={() => setAdmin(a, false)}
                  >
                    Remove admin
                  </ConfirmButton>
                ) : (
                  <Button
                    size="sm"
                    variant="ghost"
                    disabled={busy !== null}
                    aria-busy={busy === a.id}
                    aria-label={a.isAdmin ? `Remove instance admin rights from ${a.name}` : `Make ${a.name} an instance admin`}
                    onClick={async () => {
                      const message = await setAdmin(a, !a.isAdmin);
                      if (message) setError(message);
                    }}
                  >
                    {busy === a.id ? "Saving…" : a.isAdmin ? "Remove admin" : "Make admin"}
                  </Button>
                )}
              </div>
            ),
          },
        }))}
      />
    </div>
  );
}

/** Creates an account with an initial password, for closed sign-up. */
export function CreateAccountForm() {
  const router = useRouter();
  const id = useId();
  const [email, setEmail] = useState("");
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setDone(null);
    const message = await send(accountRoutes.createAccount, { body: { email: email.trim(), name: name.trim(), password } });
    setBusy(false);
    if (message) {
      setError(message);
      return;
    }
    setDone(`Account created for ${email.trim()}. Give them the password through a channel you trust; they sign in at ${window.location.origin}/sign-in.`);
    setEmail("");
    setName("");
    setPassword("");
    router.refresh();
  }

  return (
    <form onSubmit={submit} className="flex flex-col gap-3" aria-describedby={error ? `${id}-error` : undefined}>
      <div className="grid gap-3 sm:grid-cols-3">
        <div>
          <Label htmlFor={`${id}-name`}>Name</Label>
          <Input id={`${id}-name`} name="name" required maxLength={80} autoComplete="off" value={name} onChange={(e) => setName(e.target.value)} />
        </div>
        <div>
          <Label htmlFor={`${id}-email`}>Email</Label>
          <EmailInput id={`${id}-email`} value={email} onChange={(e) => setEmail(e.target.value)} />
        </div>
        <div>
          <Label htmlFor={`${id}-password`}>Initial password</Label>
          <Input
            id={`${id}-password`}
            name="password"
            type="password"
            required
            minLength={10}
            maxLength={256}
            autoComplete="new-password"
            aria-describedby={`${id}-password-hint`}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
          <p id={`${id}-password-hint`} className="mt-1 text-xs text-fg-muted">
            At least 10 characters.
          </p>
        </div>
      </div>
      <div className="flex items-center justify-between gap-3">
        <div className="min-w-0 text-sm">
          <div id={`${id}-error`} role="alert" aria-live="assertive" className="text-danger empty:hidden">
            {error}
          </div>
          <div role="status" aria-live="polite" className="text-ok empty:hidden">
            {done}
          </div>
        </div>
        <Button type="submit" variant="primary" disabled={busy} aria-busy={busy} className="shrink-0">
          <UserPlus aria-hidden className="size-4" />
          {busy ? "Creating…" : "Create account"}
        </Button>
      </div>
    </form>
  );
}
