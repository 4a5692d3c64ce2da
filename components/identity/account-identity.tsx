"use client";

import { useMemo, type ReactNode } from "react";
import { colorFor, fixedIdentitySource } from "@/lib/collab/identity";
import { IdentitySourceContext } from "./identity-source";

/** Team mode: the signed-in account is the identity source; local mode (no account) keeps the browser's chosen name. */
export function AccountIdentityProvider({ account, children }: { account: { id: string; name: string } | null; children: ReactNode }) {
  const id = account?.id;
  const name = account?.name;
  const source = useMemo(() => (id && name ? fixedIdentitySource({ id, name, color: colorFor(id) }) : null), [id, name]);
  if (!source) return <>{children}</>;
  return <IdentitySourceContext.Provider value={source}>{children}</IdentitySourceContext.Provider>;
}
