"use client";

import { createContext, useContext, useSyncExternalStore } from "react";
import type { Identity, IdentitySource } from "@/lib/collab/identity";
import { localIdentity } from "./local-identity";

/** The one identity source of the page: the browser's chosen name unless an account provider replaces it. */
export const IdentitySourceContext = createContext<IdentitySource>(localIdentity);

export function useIdentitySource(): IdentitySource {
  return useContext(IdentitySourceContext);
}

/** The identity, re-rendering when it changes; null on the server and before a name is chosen. */
export function useIdentity(): Identity | null {
  const source = useIdentitySource();
  return useSyncExternalStore(
    (l) => source.subscribe(l),
    () => source.current(),
    () => null,
  );
}
