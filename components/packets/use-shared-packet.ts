"use client";

import { HocuspocusProvider } from "@hocuspocus/provider";
import { useEffect, useMemo, useState } from "react";
import * as Y from "yjs";
import type { Identity } from "@/lib/collab/identity";
import { markdownText } from "@/lib/collab/shared-text";
import { UnstoredEdits, parseStoredMessage } from "@/lib/collab/stored-message";
import { ApiError, callApi } from "@/lib/api/client";
import { accountRoutes } from "@/lib/auth/schemas";

export interface Peer {
  clientId: number;
  name: string;
  color: string;
  self: boolean;
}

export interface SharedPacket {
  doc: Y.Doc;
  text: Y.Text;
  provider: HocuspocusProvider | null;
  /** The shared markdown, updated on every local or remote change. */
  markdown: string;
  status: "connecting" | "connected" | "disconnected";
  /** Whether the first sync with the server has completed (before it, the text is the saved revision). */
  synced: boolean;
  /** Local changes the server has not acknowledged yet. */
  unsynced: number;
  /** When the server last wrote the document to the database with every edit made here so far (epoch ms). */
  storedAt: number | null;
  /** An edit made here that no store has covered yet (it may have reached the server, but not the database). */
  savePending: boolean;
  peers: Peer[];
}

/**
 * The packet's shared document over Hocuspocus. Until the first sync the text is the
 * saved revision; edits made while disconnected stay in the document and merge when the
 * connection returns.
 */
async function fetchCollabToken(): Promise<string> {
  try {
    return (await callApi(accountRoutes.collabToken, { cache: "no-store" })).token ?? "";
  } catch (e) {
    if (e instanceof ApiError) return "";
    throw e;
  }
}

export function useSharedPacket(url: string | null, packetId: string, initial: string, identity: Identity | null): SharedPacket {
  const doc = useMemo(() => new Y.Doc(), []);
  const text = useMemo(() => markdownText(doc), [doc]);
  const [markdown, setMarkdown] = useState(initial);
  const [provider, setProvider] = useState<HocuspocusProvider | null>(null);
  const [status, setStatus] = useState<SharedPacket["status"]>(url ? "connecting" : "disconnected");
  const [synced, setSynced] = useState(false);
  const [unsynced, setUnsynced] = useState(0);
  const [storedAt, setStoredAt] = useState<number | null>(null);
  const [savePending, setSavePending] = useState(false);
  const [peers, setPeers] = useState<Peer[]>([]);

  useEffect(() => {
    const onChange = () => setMarkdown(text.toString());
    text.observe(onChange);
    return () => text.unobserve(onChange);
  }, [text]);

  const unstored = useMemo(() => new UnstoredEdits(doc), [doc]);
  useEffect(() => {
    // An edit made here is unsaved until a "stored" notice covers it.
    const onUpdate = (_update: Uint8Array, _origin: unknown, _doc: Y.Doc, tr: Y.Transaction) => {
      if (!tr.local) return;
      unstored.record(tr);
      setSavePending(true);
    };
    doc.on("update", onUpdate);
    return () => doc.off("update", onUpdate);
  }, [doc, unstored]);

  useEffect(() => {
    if (!url) {
      // No co-editing server: edit a local document seeded with the saved text.
      if (text.length === 0) text.insert(0, initial);
      setSynced(true);
      return;
    }
    const p = new HocuspocusProvider({
      url,
      name: `packet:${packetId}`,
      // Team mode: a fresh short-lived token on every (re)connect; local mode's is empty.
      token: fetchCollabToken,
      document: doc,
      onStatus: ({ status: s }) => setStatus(s as SharedPacket["status"]),
      onSynced: ({ state }) => setSynced(state),
      onUnsyncedChanges: ({ number }) => setUnsynced(number),
      onStateless: ({ payload }) => {
        const notice = parseStoredMessage(payload);
        if (notice && unstored.settle(notice)) {
          setStoredAt(notice.at);
          setSavePending(false);
        }
      },
      onAwarenessChange: ({ states }) =>
        setPeers(
          states
            .filter((s) => s.user && typeof (s.user as { name?: unknown }).name === "string")
            .map((s) => ({ clientId: s.clientId, name: (s.user as { name: string }).name, color: (s.user as { color?: string }).color ?? "#64748b", self: s.clientId === doc.clientID })),
        ),
    });
    setProvider(p);
    return () => {
      p.destroy();
      setProvider(null);
    };
    // initial is only the first paint's text; the server's document wins after sync.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [url, packetId, doc, text, unstored]);

  useEffect(() => {
    if (provider && identity) provider.setAwarenessField("user", { name: identity.name, color: identity.color, id: identity.id });
  }, [provider, identity]);

  return { doc, text, provider, markdown: synced ? markdown : initial, status, synced, unsynced, storedAt, savePending, peers };
}
