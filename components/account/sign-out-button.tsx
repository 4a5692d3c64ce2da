"use client";

import { useState } from "react";
import { LogOut } from "lucide-react";
import { Button, type ButtonProps } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { authClient, authErrorMessage } from "./auth-client";

/** Ends the browser session (personal access tokens keep working) and opens the sign-in page. */
export function SignOutButton({ variant = "secondary", size = "md", className }: { variant?: ButtonProps["variant"]; size?: ButtonProps["size"]; className?: string }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function signOut() {
    setBusy(true);
    setError(null);
    try {
      const res = await authClient().signOut();
      if (res.error) throw new Error(authErrorMessage(res.error));
      window.location.assign("/sign-in");
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      setBusy(false);
    }
  }

  return (
    <>
      <Button type="button" variant={variant} size={size} className={cn(className)} onClick={signOut} disabled={busy} aria-busy={busy}>
        <LogOut aria-hidden className="size-4" />
        {busy ? "Signing out…" : "Sign out"}
      </Button>
      <span role="alert" aria-live="assertive" className="text-xs text-danger empty:hidden">
        {error}
      </span>
    </>
  );
}
