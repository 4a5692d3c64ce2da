"use client";

import { useContext, useSyncExternalStore } from "react";
import { AccountIdentityContext } from "./account-identity";
import { cleanDisplayName, colorFor, type Identity, type IdentitySource } from "@/lib/collab/identity";

const NAME_KEY = "workbench.displayName";
const ID_KEY = "workbench.clientId";
const listeners = new Set<() => void>();
let cached: { raw: string | null; identity: Identity | null } = { raw: null, identity: null };

/** Local mode: the name this browser chose, kept in localStorage. */
export const localIdentity: IdentitySource = {
  current() {
    const raw = window.localStorage.getItem(NAME_KEY);
    if (raw === cached.raw) return cached.identity;
    let id = window.localStorage.getItem(ID_KEY);
    if (!id) {
      id = crypto.randomUUID();
      window.localStorage.setItem(ID_KEY, id);
    }
    const name = raw ? cleanDisplayName(raw) : null;
    cached = { raw, identity: name ? { id, name, color: colorFor(id) } : null };
    return cached.identity;
  },
  choose(raw: string) {
    const name = cleanDisplayName(raw);
    if (!name) throw new Error("A display name has 1 to 40 characters.");
    window.localStorage.setItem(NAME_KEY, name);
    listeners.forEach((l) => l());
    return this.current()!;
  },
};

/**
 * The identity, re-rendering when it changes: the signed-in account in team mode, else the name
 * this browser chose; null on the server and before a name is chosen.
 */
export function useIdentity(source: IdentitySource = localIdentity): Identity | null {
  const account = useContext(AccountIdentityContext);
  const local = useSyncExternalStore(
    (l) => {
      listeners.add(l);
      const onStorage = (e: StorageEvent) => e.key === NAME_KEY && l();
      window.addEventListener("storage", onStorage);
      return () => {
        listeners.delete(l);
        window.removeEventListener("storage", onStorage);
      };
    },
    () => source.current(),
    () => null,
  );
  return account ?? local;
}
