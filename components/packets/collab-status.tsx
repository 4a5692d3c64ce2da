"use client";

import { useState } from "react";
import { useIdentitySource } from "@/components/identity/identity-source";
import type { Identity } from "@/lib/collab/identity";
import type { Peer } from "./use-shared-packet";
import { plural } from "@/lib/core/plural";
import { timestampText } from "@/lib/core/time-format";

/** Connection, save state and who is here; asks for a display name until one is chosen. */
export function CollabStatus({
  enabled,
  status,
  synced,
  unsynced,
  storedAt,
  savePending,
  peers,
  identity,
}: {
  enabled: boolean;
  status: "connecting" | "connected" | "disconnected";
  synced: boolean;
  unsynced: number;
  storedAt: number | null;
  savePending: boolean;
  peers: Peer[];
  identity: Identity | null;
}) {
  const source = useIdentitySource();
  const [name, setName] = useState("");
  const [error, setError] = useState<string | null>(null);
  const state = !enabled
    ? "Co-editing is off: edits stay in this browser until you save a revision."
    : !synced
      ? status === "disconnected"
        ? "Cannot reach the co-editing server; retrying…"
        : "Connecting to the co-editing server…"
      : status !== "connected"
        ? `Offline: ${unsynced ? `${plural(unsynced, "change")} ${unsynced === 1 ? "waits and merges" : "wait and merge"}` : "edits merge"} when the connection returns.`
        : unsynced
          ? "Sending changes…"
          : savePending
            ? "Saving to the server…"
            : storedAt
              ? `All changes saved to the server (${timestampText(storedAt)}).`
              : "Connected.";
  return (
    <div className="flex flex-wrap items-center gap-3 rounded-md border border-border bg-surface px-3 py-2 text-xs" data-testid="collab-status">
      <span role="status" aria-live="polite" data-state={!synced ? "connecting" : status !== "connected" ? "offline" : unsynced ? "sending" : savePending ? "saving" : storedAt ? "stored" : "connected"}>
        {state}
      </span>
      {peers.length ? (
        <ul className="ml-auto flex items-center gap-1" aria-label="People editing">
          {peers.map((p) => (
            <li key={p.clientId} className="flex items-center gap-1 rounded-full border border-border px-2 py-0.5" title={p.self ? "you" : undefined}>
              <span className="inline-block size-2 rounded-full" style={{ background: p.color }} aria-hidden />
              {p.name}
              {p.self ? " (you)" : ""}
            </li>
          ))}
        </ul>
      ) : null}
      {enabled && !identity && source.choose ? (
        <form
          className="flex basis-full items-center gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            try {
              source.choose?.(name);
              setError(null);
            } catch (err) {
              setError(err instanceof Error ? err.message : String(err));
            }
          }}
        >
          <label htmlFor="display-name">Your name, shown to others editing:</label>
          <input id="display-name" className="h-7 rounded border border-border bg-surface px-2" value={name} onChange={(e) => setName(e.target.value)} maxLength={40} />
          <button type="submit" className="h-7 rounded border border-border px-2 hover:bg-muted">
            Set name
          </button>
          {error ? <span className="text-danger">{error}</span> : null}
        </form>
      ) : null}
    </div>
  );
}
