"use client";

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
  subscribe(onChange) {
    listeners.add(onChange);
    // Another tab choosing a name changes this one's too.
    const onStorage = (e: StorageEvent) => e.key === NAME_KEY && onChange();
    window.addEventListener("storage", onStorage);
    return () => {
      listeners.delete(onChange);
      window.removeEventListener("storage", onStorage);
    };
  },
  choose(raw: string) {
    const name = cleanDisplayName(raw);
    if (!name) throw new Error("A display name has 1 to 40 characters.");
    window.localStorage.setItem(NAME_KEY, name);
    listeners.forEach((l) => l());
    return this.current()!;
  },
};
