"use client";

import { useId, useState } from "react";
import { KeyRound } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Input, Label } from "@/components/ui/input";
import { authClient, authErrorMessage } from "./auth-client";
import { EmailInput } from "./email-input";
import { safeNext } from "./safe-next";

type Mode = "sign-in" | "sign-up";

/**
 * Email and password sign-in, single sign-on when an OIDC provider is configured, and account
 * creation when sign-up is allowed. Success is a full page load, so the layout renders the session.
 */
export function SignInForm({
  next,
  canSignUp,
  firstAccount,
  oidcName,
  initialError,
  initialSetupCode = "",
}: {
  next: string;
  canSignUp: boolean;
  firstAccount: boolean;
  oidcName: string | null;
  initialError: string | null;
  /** The first account's setup code, from the link `workbench serve` printed. */
  initialSetupCode?: string;
}) {
  const id = useId();
  const [mode, setMode] = useState<Mode>(firstAccount && canSignUp ? "sign-up" : "sign-in");
  const [name, setName] = useState("");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [setupCode, setSetupCode] = useState(initialSetupCode);
  const [error, setError] = useState<string | null>(initialError);
  const [busy, setBusy] = useState<"password" | "oidc" | null>(null);
  const signingUp = mode === "sign-up";

  function go() {
    // Checked again here: the page passes a safe path, but this is the last step before leaving.
    window.location.assign(safeNext(next));
  }

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setBusy("password");
    setError(null);
    try {
      const client = authClient();
      const res = signingUp
        ? await client.signUp.email({ name: name.trim(), email: email.trim(), password }, firstAccount ? { headers: { "x-workbench-setup-code": setupCode.trim() } } : undefined)
        : await client.signIn.email({ email: email.trim(), password });
      if (res.error) throw new Error(authErrorMessage(res.error));
      go();
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
      setBusy(null);
    }
  }

  async function singleSignOn() {
    setBusy("oidc");
    setError(null);
    try {
      const res = await authClient().signIn.social({
        provider: "oidc",
        callbackURL: safeNext(next),
        errorCallbackURL: `/sign-in${next === "/" ? "" : `?next=${encodeURIComponent(next)}`}`,
      });
      // On success the client leaves for the provider; an answer here is an error.
      if (res.error) throw new Error(authErrorMessage(res.error));
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
      setBusy(null);
    }
  }

  function switchMode(to: Mode) {
    setMode(to);
    setError(null);
    setPassword("");
    requestAnimationFrame(() => document.getElementById(`${id}-${to === "sign-up" ? "name" : "email"}`)?.focus());
  }

  const errorId = `${id}-error`;
  return (
    <div className="flex flex-col gap-4">
      {signingUp && firstAccount ? (
        <p className="rounded-md border border-accent/30 bg-accent/10 px-3 py-2 text-sm">
          No accounts exist yet. The first account becomes the instance administrator: it adds projects and creates the other accounts. It needs the setup code that{" "}
          <code className="font-mono text-xs">workbench serve</code> printed when it started.
        </p>
      ) : null}
      <form onSubmit={submit} className="flex flex-col gap-3" aria-describedby={error ? errorId : undefined}>
        {signingUp && firstAccount ? (
          <div>
            <Label htmlFor={`${id}-setup`}>Setup code</Label>
            <Input id={`${id}-setup`} name="setup" required autoComplete="off" spellCheck={false} maxLength={64} value={setupCode} onChange={(e) => setSetupCode(e.target.value)} />
          </div>
        ) : null}
        {signingUp ? (
          <div>
            <Label htmlFor={`${id}-name`}>Name</Label>
            <Input id={`${id}-name`} name="name" autoComplete="name" required maxLength={80} value={name} onChange={(e) => setName(e.target.value)} />
            <p className="mt-1 text-xs text-fg-muted">Shown to the people you work with.</p>
          </div>
        ) : null}
        <div>
          <Label htmlFor={`${id}-email`}>Email</Label>
          <EmailInput id={`${id}-email`} autoComplete={signingUp ? "email" : "username"} value={email} onChange={(e) => setEmail(e.target.value)} />
        </div>
        <div>
          <Label htmlFor={`${id}-password`}>Password</Label>
          <Input
            id={`${id}-password`}
            name="password"
            type="password"
            autoComplete={signingUp ? "new-password" : "current-password"}
            required
            minLength={signingUp ? 10 : undefined}
            maxLength={256}
            aria-describedby={signingUp ? `${id}-password-hint` : undefined}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
          {signingUp ? (
            <p id={`${id}-password-hint`} className="mt-1 text-xs text-fg-muted">
              At least 10 characters.
            </p>
          ) : null}
        </div>
        <div id={errorId} role="alert" aria-live="assertive" className="text-sm text-danger empty:hidden">
          {error}
        </div>
        <Button type="submit" variant="primary" disabled={busy !== null} aria-busy={busy === "password"}>
          {busy === "password" ? (signingUp ? "Creating account…" : "Signing in…") : signingUp ? "Create account" : "Sign in"}
        </Button>
      </form>
      {oidcName ? (
        <>
          <div className="flex items-center gap-3 text-xs text-fg-muted" aria-hidden>
            <span className="h-px flex-1 bg-border" />
            or
            <span className="h-px flex-1 bg-border" />
          </div>
          <Button type="button" onClick={singleSignOn} disabled={busy !== null} aria-busy={busy === "oidc"}>
            <KeyRound aria-hidden className="size-4" />
            {busy === "oidc" ? "Redirecting…" : `Continue with ${oidcName}`}
          </Button>
        </>
      ) : null}
      {canSignUp ? (
        <p className="text-center text-sm text-fg-muted">
          {signingUp ? "Already have an account? " : "No account yet? "}
          <button type="button" onClick={() => switchMode(signingUp ? "sign-in" : "sign-up")} className="rounded font-medium text-accent hover:underline focus-visible:outline-2 focus-visible:outline-accent">
            {signingUp ? "Sign in" : "Create account"}
          </button>
        </p>
      ) : (
        <p className="text-center text-xs text-fg-muted">Accounts are created by an administrator.</p>
      )}
    </div>
  );
}
