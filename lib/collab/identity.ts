/**
 * Who is editing. In local mode each browser picks a display name; accounts (a later
 * issue) provide the same shape, so the editor only ever sees an Identity.
 */
export interface Identity {
  /** Stable per person (local mode: per browser). */
  id: string;
  name: string;
  /** Cursor and avatar colour, derived from the id so it is the same everywhere. */
  color: string;
}

/**
 * Where the editor gets its identity from: the browser's chosen name in local mode, the
 * signed-in account in team mode. The editor reads only this interface.
 */
export interface IdentitySource {
  /** The current identity, or null when the person has not chosen a name yet. Must return the same object until it changes. */
  current(): Identity | null;
  /** Calls `onChange` whenever `current()` may have changed; returns the unsubscribe. */
  subscribe(onChange: () => void): () => void;
  /** Local mode only: remember a display name. Accounts take names from the account, so they leave this out. */
  choose?(name: string): Identity;
}

/** A fixed identity (a signed-in account): never changes, and no name to choose. */
export function fixedIdentitySource(identity: Identity | null): IdentitySource {
  return { current: () => identity, subscribe: () => () => {} };
}

const PALETTE = ["#2563eb", "#16a34a", "#d97706", "#db2777", "#7c3aed", "#0891b2", "#dc2626", "#4d7c0f"];

export function colorFor(id: string): string {
  let h = 2166136261;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 16777619);
  return PALETTE[(h >>> 0) % PALETTE.length]!;
}

/** A display name as people type it: trimmed, single-spaced, 1-40 characters. */
export function cleanDisplayName(raw: string): string | null {
  const name = raw.replace(/\s+/g, " ").trim();
  return name.length >= 1 && name.length <= 40 ? name : null;
}
