"use client";

import { createContext, useMemo, type ReactNode } from "react";
import { colorFor, type Identity } from "@/lib/collab/identity";

/** Team mode: the signed-in account is the identity; local mode leaves this null and the browser picks a name. */
export const AccountIdentityContext = createContext<Identity | null>(null);

export function AccountIdentityProvider({ account, children }: { account: { id: string; name: string } | null; children: ReactNode }) {
  const id = account?.id;
  const name = account?.name;
  const identity = useMemo(() => (id && name ? { id, name, color: colorFor(id) } : null), [id, name]);
  return <AccountIdentityContext.Provider value={identity}>{children}</AccountIdentityContext.Provider>;
}
