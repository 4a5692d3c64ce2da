"use client";

import { Pencil } from "lucide-react";
import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import { callApi, errorMessage } from "@/lib/api/client";
import { packetRoutes, type PacketWire } from "@/lib/packets/schemas";
import { TITLE_MAX_CHARS, titleFollowsText, titleFromText } from "@/lib/packets/title";
import { Button } from "@/components/ui/button";

interface TitleState {
  projectId: string;
  packet: Pick<PacketWire, "id" | "kind" | "title" | "markdown">;
  /** The editor's live text, for a title that follows the Task as it is typed. */
  live: string;
  canEdit: boolean;
  setPacket: (p: PacketWire) => void;
  setLive: (markdown: string) => void;
}

const TitleContext = createContext<TitleState | null>(null);

/**
 * Shares a packet's title between the page header and the editor: the header shows it, and
 * while nobody has renamed the packet it follows the Task (or a brief's Summary) as it is typed.
 */
export function PacketTitleProvider({ projectId, packet: initial, canEdit, children }: { projectId: string; packet: PacketWire; canEdit: boolean; children: ReactNode }) {
  const [packet, setPacket] = useState<TitleState["packet"]>(initial);
  const [live, setLive] = useState(initial.markdown);
  const value = useMemo(() => ({ projectId, packet, live, canEdit, setPacket, setLive }), [projectId, packet, live, canEdit]);
  return <TitleContext.Provider value={value}>{children}</TitleContext.Provider>;
}

/** The editor tells the header what the text says now, and what the server answered last. */
export function usePublishPacketTitle(markdown: string, packet: PacketWire): void {
  const ctx = useContext(TitleContext);
  const setLive = ctx?.setLive;
  const setPacket = ctx?.setPacket;
  useEffect(() => setLive?.(markdown), [setLive, markdown]);
  useEffect(() => setPacket?.(packet), [setPacket, packet]);
}

function useTitle() {
  const ctx = useContext(TitleContext);
  if (!ctx) throw new Error("PacketTitle needs a PacketTitleProvider");
  const follows = titleFollowsText(ctx.packet.title, ctx.packet.markdown, ctx.packet.kind);
  return { ...ctx, follows, shown: follows ? titleFromText(ctx.live, ctx.packet.kind) : ctx.packet.title };
}

export function PacketTitle() {
  const { shown } = useTitle();
  return <span data-testid="packet-title">{shown}</span>;
}

/** Whether the title follows the text, and a rename form. */
export function PacketTitleControls() {
  const { projectId, packet, follows, shown, canEdit, setPacket } = useTitle();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const field = packet.kind === "brief" ? "Summary" : "Task";

  async function rename(title: string) {
    setBusy(true);
    setError(null);
    try {
      const r = await callApi(packetRoutes.update, { params: { id: projectId, packetId: packet.id }, body: { title } });
      setPacket(r.packet);
      setEditing(false);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  }

  if (!editing) {
    return (
      <div className="flex items-center gap-2 text-xs text-fg-muted">
        <span data-testid="title-source">{follows ? `Title follows the ${field}` : "Renamed"}</span>
        {canEdit ? (
          <>
            <Button
              size="sm"
              variant="ghost"
              aria-label="Rename packet"
              onClick={() => {
                setDraft(shown);
                setEditing(true);
              }}
            >
              <Pencil className="size-4" aria-hidden /> Rename
            </Button>
            {follows ? null : (
              <Button size="sm" variant="ghost" disabled={busy} onClick={() => void rename(titleFromText(packet.markdown, packet.kind))} title={`Name the packet after its saved ${field} line again`}>
                Follow the {field}
              </Button>
            )}
          </>
        ) : null}
      </div>
    );
  }
  return (
    <form
      className="flex flex-wrap items-center gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        if (draft.trim()) void rename(draft.trim());
      }}
    >
      <label htmlFor="packet-rename" className="sr-only">
        Packet title
      </label>
      <input
        id="packet-rename"
        autoFocus
        value={draft}
        maxLength={TITLE_MAX_CHARS}
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Escape") setEditing(false);
        }}
        aria-invalid={error !== null}
        aria-describedby={error ? "packet-rename-error" : undefined}
        className="h-8 w-72 rounded-md border border-border bg-surface px-2 text-sm focus-visible:outline-2 focus-visible:outline-accent"
      />
      <Button type="submit" size="sm" variant="primary" disabled={busy || !draft.trim()}>
        Save title
      </Button>
      <Button type="button" size="sm" variant="ghost" onClick={() => setEditing(false)}>
        Cancel
      </Button>
      {error ? (
        <p id="packet-rename-error" role="alert" className="w-full text-xs text-danger">
          {error}
        </p>
      ) : null}
    </form>
  );
}
