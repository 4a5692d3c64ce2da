"use client";

import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { Trash2, UserPlus } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Label } from "@/components/ui/input";
import { ROLES, type Role } from "@/lib/auth/roles";
import { accountRoutes } from "@/lib/auth/schemas";
import { ConfirmButton, send } from "./confirm-button";
import { EmailInput } from "./email-input";

const select = "h-8 rounded-md border border-border bg-surface px-2 text-sm focus-visible:outline-2 focus-visible:outline-accent disabled:opacity-50";

/** Adds an account to the project by its email, in a role (a project admin's action). */
export function AddMemberForm({ projectId }: { projectId: string }) {
  const router = useRouter();
  const id = useId();
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("viewer");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    const message = await send(accountRoutes.addMember, { params: { id: projectId }, body: { email: email.trim(), role } });
    setBusy(false);
    if (message) {
      setError(message);
      return;
    }
    setEmail("");
    router.refresh();
  }

  return (
    <form onSubmit={submit} className="flex flex-col gap-3" aria-describedby={error ? `${id}-error` : undefined}>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="flex-1">
          <Label htmlFor={`${id}-email`}>Account email</Label>
          <EmailInput id={`${id}-email`} placeholder="colleague@example.com" value={email} onChange={(e) => setEmail(e.target.value)} />
        </div>
        <div className="sm:w-40">
          <Label htmlFor={`${id}-role`}>Role</Label>
          <select id={`${id}-role`} className={`${select} h-9 w-full`} value={role} onChange={(e) => setRole(e.target.value as Role)}>
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </div>
        <Button type="submit" variant="primary" disabled={busy || email.trim() === ""} aria-busy={busy}>
          <UserPlus aria-hidden className="size-4" />
          {busy ? "Adding…" : "Add member"}
        </Button>
      </div>
      <p className="text-xs text-fg-muted">The account must exist: an instance admin creates it. Adding someone who is already a member changes their role.</p>
      <div id={`${id}-error`} role="alert" aria-live="assertive" className="text-sm text-danger empty:hidden">
        {error}
      </div>
    </form>
  );
}

/** A member's role, changed in place, and their removal (with a confirmation). */
export function MemberControls({ projectId, member, isSelf }: { projectId: string; member: { userId: string; name: string; email: string; role: Role }; isSelf: boolean }) {
  const router = useRouter();
  const [role, setRole] = useState<Role>(member.role);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const params = { id: projectId, userId: member.userId };

  async function change(next: Role) {
    const previous = role;
    setRole(next);
    setBusy(true);
    setError(null);
    const message = await send(accountRoutes.setMemberRole, { params, body: { role: next } });
    setBusy(false);
    if (message) {
      setRole(previous);
      setError(message);
      return;
    }
    router.refresh();
  }

  async function remove(): Promise<string | null> {
    const message = await send(accountRoutes.removeMember, { params });
    if (message) return message;
    if (isSelf) window.location.assign("/");
    else router.refresh();
    return null;
  }

  return (
    <div className="flex flex-wrap items-center justify-end gap-2">
      <label className="sr-only" htmlFor={`role-${member.userId}`}>
        Role of {member.name}
      </label>
      <select id={`role-${member.userId}`} className={select} value={role} disabled={busy} aria-busy={busy} onChange={(e) => change(e.target.value as Role)}>
        {ROLES.map((r) => (
          <option key={r} value={r}>
            {r}
          </option>
        ))}
      </select>
      <ConfirmButton
        aria-label={`Remove ${member.name} from the project`}
        title={isSelf ? "Leave this project?" : `Remove ${member.name}?`}
        description={
          isSelf
            ? "You lose your role on this project. Unless you are an instance admin, you will no longer see it."
            : `${member.name} (${member.email}) loses access to this project, including through their personal access tokens.`
        }
        confirmLabel={isSelf ? "Leave project" : "Remove member"}
        busyLabel="Removing…"
        onConfirm={remove}
      >
        <Trash2 aria-hidden className="size-4" /> Remove
      </ConfirmButton>
      <span role="alert" aria-live="assertive" className="basis-full text-right text-xs text-danger empty:hidden">
        {error}
      </span>
    </div>
  );
}
