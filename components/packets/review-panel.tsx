"use client";

import { useCallback, useEffect, useMemo, useState } from "react";
import type * as Y from "yjs";
import { encodeAnchor, resolveAnchor, type ResolvedAnchor } from "@/lib/collab/anchors";
import { ACTION_LABEL, availableActions, isReviewStatus, type ReviewAction } from "@/lib/collab/review";
import type { Identity } from "@/lib/collab/identity";
import type { z } from "zod";
import { apiUrl, callApi, errorMessage } from "@/lib/api/client";
import { reviewRoutes, type commentInput } from "@/lib/collab/schemas";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Time } from "@/components/ui/time";
import { AgentName } from "@/components/mcp/agent-name";
import { useNamedAction } from "@/components/identity/name-dialog";
import { TextQuote, X } from "lucide-react";
import { plural } from "@/lib/core/plural";

/** Decisions about a revision's text: they name the revision they were made on. */
const REVISION_ACTIONS = new Set<ReviewAction>(["approve", "request_changes"]);

const STATUS_TONE: Record<string, "neutral" | "accent" | "warn" | "ok"> = { draft: "neutral", in_review: "accent", changes_requested: "warn", approved: "ok" };

type ReviewHistory = Awaited<ReturnType<typeof loadHistory>>;
type CommentDto = Awaited<ReturnType<typeof loadComments>>["comments"][number];
type PacketParams = { id: string; packetId: string };
const loadHistory = (params: PacketParams) => callApi(reviewRoutes.history, { params });
const loadComments = (params: PacketParams) => callApi(reviewRoutes.comments, { params });

/**
 * Review status with its actions and history, and comment threads anchored to a section
 * or to the text selected in the markdown view. Other participants learn of a change
 * through a counter in the shared document, and reload what changed.
 */
export function ReviewPanel({
  params,
  identity,
  signals,
  sections,
  selection,
  onStatusChange,
  unsavedText,
  text,
  markdown,
  reveal,
  headNumber,
  headBlocks,
}: {
  /** The project and packet reviewed. */
  params: PacketParams;
  identity: Identity | null;
  signals: Y.Map<number>;
  sections: string[];
  selection: () => { from: number; to: number; text: string } | null;
  onStatusChange: () => void;
  /** The shared text differs from the latest saved revision (what a decision applies to). */
  unsavedText: boolean;
  /** The shared text, where quoted ranges are anchored. */
  text: Y.Text;
  /** Its current markdown: anchors are placed again whenever it changes. */
  markdown: string;
  /** Selects [from, to) in the markdown view. */
  reveal: (from: number, to: number) => void;
  /** The latest saved revision this page knows of: the history is loaded again when it moves. */
  headNumber: number;
  /** BLOCK findings on that revision: it cannot be approved until they are fixed and saved. */
  headBlocks: number;
}) {
  const [history, setHistory] = useState<ReviewHistory | null>(null);
  const [comments, setComments] = useState<CommentDto[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState("");
  const [anchor, setAnchor] = useState<string>(sections[0] ?? "");
  const [body, setBody] = useState("");
  const [quote, setQuote] = useState<{ from: number; to: number; text: string } | null>(null);
  const [replies, setReplies] = useState<Record<string, string>>({});
  // Everything here is recorded under a name: asked for the first time one is needed.
  const { withName, dialog } = useNamedAction(identity);

  const load = useCallback(async () => {
    try {
      const [h, c] = await Promise.all([loadHistory(params), loadComments(params)]);
      setHistory(h);
      setComments(c.comments);
    } catch (e) {
      setError(errorMessage(e));
    }
    // The packet is the identity of `params`, not the object.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [params.id, params.packetId]);

  useEffect(() => {
    void load();
  }, [load, headNumber]);

  useEffect(() => {
    const onSignal = (ev: Y.YMapEvent<number>) => {
      void load();
      if (ev.keysChanged.has("review")) onStatusChange();
    };
    signals.observe(onSignal);
    return () => signals.unobserve(onSignal);
  }, [load, signals, onStatusChange]);

  const bump = (key: "review" | "comments") => signals.set(key, (signals.get(key) ?? 0) + 1);

  async function act(action: ReviewAction, actor: string) {
    setError(null);
    try {
      // The decision names the revision shown here: if someone saved a newer one meanwhile, the server refuses it.
      const revision = REVISION_ACTIONS.has(action) ? (history?.packet.headNumber ?? null) : null;
      await callApi(reviewRoutes.act, { params, body: { action, actor, note: note.trim() || null, revision } });
      setNote("");
      bump("review");
      await load();
      onStatusChange();
    } catch (e) {
      setError(errorMessage(e));
      // A refusal often means the packet moved on (a newer revision, another decision): show where it is now.
      await load();
    }
  }

  async function comment(author: string, payload: Omit<z.input<typeof commentInput>, "author">) {
    setError(null);
    try {
      await callApi(reviewRoutes.comment, { params, body: { author, ...payload } });
      bump("comments");
      await load();
      return true;
    } catch (e) {
      setError(errorMessage(e));
      return false;
    }
  }

  async function resolve(threadId: string, resolved: boolean, actor: string) {
    setError(null);
    try {
      await callApi(reviewRoutes.resolve, { params: { ...params, threadId }, body: { resolved, actor } });
      bump("comments");
      await load();
    } catch (e) {
      setError(errorMessage(e));
    }
  }

  // Where each quoted thread sits in the text now; `markdown` is a dependency so they are placed again after every edit.
  const placements = useMemo(() => {
    const m = new Map<string, ResolvedAnchor | null>();
    for (const c of comments) {
      if (c.id === c.threadId && c.quote && c.anchorStart && c.anchorEnd) m.set(c.threadId, resolveAnchor(text, { start: c.anchorStart, end: c.anchorEnd }, c.quote));
    }
    return m;
    // eslint-disable-next-line react-hooks/exhaustive-deps -- markdown is not read, but each edit must place the threads again
  }, [comments, text, markdown]);

  const status = history?.packet.reviewStatus ?? "draft";
  const threads = new Map<string, CommentDto[]>();
  for (const c of comments) threads.set(c.threadId, [...(threads.get(c.threadId) ?? []), c]);
  const input = "rounded-md border border-border bg-surface px-2 text-sm";

  return (
    <div className="space-y-4" data-testid="review-panel">
      {dialog}
      <section aria-label="Review status" className="space-y-2">
        <div className="flex flex-wrap items-center gap-2 text-sm">
          Status <Badge tone={STATUS_TONE[status] ?? "neutral"}>{status.replace("_", " ")}</Badge>
          {history?.packet.approvedNumber ? <span className="text-xs text-fg-muted">approved revision r{history.packet.approvedNumber} (frozen)</span> : null}
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <input className={`${input} h-8 min-w-60 flex-1`} placeholder="Note (optional)" aria-label="Review note" value={note} onChange={(e) => setNote(e.target.value)} />
          {isReviewStatus(status)
            ? availableActions(status).map((a) => {
                const label = `${ACTION_LABEL[a]}${REVISION_ACTIONS.has(a) && history ? ` r${history.packet.headNumber}` : ""}`;
                return (
                  <Button
                    key={a}
                    size="sm"
                    variant={a === "approve" ? "primary" : "secondary"}
                    disabled={!history || (a === "approve" && headBlocks > 0)}
                    title={a === "approve" && headBlocks > 0 ? `r${headNumber} has ${plural(headBlocks, "BLOCK finding")}: fix them and save before approving.` : undefined}
                    onClick={() => withName(label, (who) => void act(a, who.name))}
                  >
                    {label}
                  </Button>
                );
              })
            : null}
        </div>
        {unsavedText && status === "in_review" ? (
          <p className="text-xs text-warn" role="note">
            The text above has edits not saved as a revision yet; a decision applies to the saved revision r{history?.packet.headNumber}.
          </p>
        ) : null}
        {history?.events.length ? (
          <ol className="space-y-0.5 text-xs" aria-label="Review history">
            {history.events.map((e) => (
              <li key={e.id}>
                <Time iso={e.createdAt} /> · <strong>{e.actor}</strong>
                {e.agentName ? (
                  <>
                    {" "}
                    via <AgentName name={e.agentName} />
                  </>
                ) : null}
                : {e.fromStatus.replace("_", " ")} → {e.toStatus.replace("_", " ")} on r{e.revision}
                {e.note ? ` — ${e.note}` : ""}
              </li>
            ))}
          </ol>
        ) : null}
        <p className="text-xs">
          Export the review history:{" "}
          <a className="underline" href={apiUrl(reviewRoutes.export, params, { format: "md" })}>
            markdown
          </a>{" "}
          ·{" "}
          <a className="underline" href={apiUrl(reviewRoutes.export, params, { format: "json" })}>
            JSON
          </a>
        </p>
      </section>

      <section aria-label="Comments" className="space-y-2">
        <form
          className="space-y-2"
          onSubmit={(e) => {
            e.preventDefault();
            const anchorOf = (q: { from: number; to: number }) => {
              const a = encodeAnchor(text, q.from, q.to);
              return { anchorStart: a.start, anchorEnd: a.end };
            };
            withName(
              "Comment",
              (who) =>
                void comment(who.name, quote ? { quote: quote.text, anchorFrom: quote.from, anchorTo: quote.to, ...anchorOf(quote), section: null, body } : { section: anchor, body }).then((ok) => {
                  if (ok) {
                    setBody("");
                    setQuote(null);
                  }
                }),
            );
          }}
        >
          <div className="flex flex-wrap items-center gap-2 text-xs">
            <label>
              About section{" "}
              <select className={`${input} h-8`} value={anchor} onChange={(e) => setAnchor(e.target.value)} disabled={quote !== null} aria-label="Comment section">
                {sections.map((s) => (
                  <option key={s} value={s}>
                    {s || "(untitled)"}
                  </option>
                ))}
              </select>
            </label>
            <Button
              type="button"
              size="sm"
              onClick={() => {
                const s = selection();
                if (s && s.text.trim()) setQuote(s);
                else setError("Select some text in the markdown view first.");
              }}
            >
              <TextQuote className="size-4" aria-hidden /> Quote the selected text
            </Button>
            {quote ? (
              <span className="flex items-center gap-1">
                <code className="max-w-60 truncate rounded bg-muted px-1">{quote.text}</code>
                <Button type="button" size="sm" variant="ghost" className="h-7 px-1.5" aria-label="Clear the quote" onClick={() => setQuote(null)}>
                  <X className="size-4" aria-hidden />
                </Button>
              </span>
            ) : null}
          </div>
          <textarea className={`${input} w-full p-2`} rows={2} placeholder="Comment" aria-label="New comment" value={body} onChange={(e) => setBody(e.target.value)} />
          <Button type="submit" size="sm" disabled={!body.trim()}>
            Comment
          </Button>
        </form>
        {threads.size === 0 ? <p className="text-sm text-fg-muted">No comments yet.</p> : null}
        <ul className="space-y-2" aria-label="Comment threads">
          {[...threads.entries()].map(([threadId, list]) => {
            const root = list[0]!;
            const placed = placements.get(threadId) ?? null;
            return (
              <li key={threadId} className={`rounded-md border border-border p-2 text-sm ${root.resolved ? "opacity-70" : ""}`} data-thread={threadId}>
                <p className="mb-1 text-xs text-fg-muted">
                  {root.quote ? (
                    <>
                      on <code className="rounded bg-muted px-1">{root.quote.slice(0, 80)}</code>
                      {placed ? (
                        <>
                          {" "}
                          <button type="button" className="underline" onClick={() => reveal(placed.from, placed.to)}>
                            show in text
                          </button>
                          {placed.matches ? null : <span className="text-warn"> · the quoted text has changed since</span>}
                        </>
                      ) : null}
                    </>
                  ) : (
                    <>on section {root.section || "(untitled)"}</>
                  )}
                  {root.resolved ? ` · resolved by ${root.resolvedBy}` : ""}
                </p>
                <ul className="space-y-1">
                  {list.map((c) => (
                    <li key={c.id}>
                      <strong>{c.author}</strong>{" "}
                      <span className="text-xs text-fg-muted">
                        <Time iso={c.createdAt} />
                      </span>
                      <p className="whitespace-pre-wrap">{c.body}</p>
                    </li>
                  ))}
                </ul>
                <div className="mt-2 flex flex-wrap items-center gap-2">
                  <input
                    className={`${input} h-8 flex-1`}
                    placeholder="Reply"
                    aria-label={`Reply to ${root.author}`}
                    value={replies[threadId] ?? ""}
                    onChange={(e) => setReplies((r) => ({ ...r, [threadId]: e.target.value }))}
                  />
                  <Button
                    size="sm"
                    disabled={!(replies[threadId] ?? "").trim()}
                    onClick={() => withName("Reply", (who) => void comment(who.name, { threadId, body: replies[threadId] ?? "" }).then((ok) => ok && setReplies((r) => ({ ...r, [threadId]: "" }))))}
                  >
                    Reply
                  </Button>
                  <Button size="sm" variant="ghost" onClick={() => withName(root.resolved ? "Reopen the thread" : "Resolve the thread", (who) => void resolve(threadId, !root.resolved, who.name))}>
                    {root.resolved ? "Reopen" : "Resolve"}
                  </Button>
                </div>
              </li>
            );
          })}
        </ul>
      </section>
      {error ? (
        <p role="alert" className="text-sm text-danger">
          {error}
        </p>
      ) : null}
    </div>
  );
}
