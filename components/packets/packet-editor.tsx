"use client";

import { Archive, ArchiveRestore, ClipboardCopy, Copy, Download, Save, Send } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import type { EditorView } from "@codemirror/view";
import { useDeferredValue, useEffect, useMemo, useRef, useState } from "react";
import { applyTextChange } from "@/lib/collab/shared-text";
import { apiUrl, callApi, errorMessage } from "@/lib/api/client";
import { packetRoutes, type PacketWire as PacketDto } from "@/lib/packets/schemas";
import type { PacketDocument, ValidationResult } from "@/lib/packets";
import { emitInfo, exportRefusal } from "@/lib/packets/export-gate";
import { parseTaskTokens } from "@/lib/packets/task-size";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { useIdentity } from "@/components/identity/identity-source";
import { useNamedAction } from "@/components/identity/name-dialog";
import { CollabStatus } from "./collab-status";
import { FindingsPanel } from "./findings-panel";
import { ReviewPanel } from "./review-panel";
import { SnapshotsPanel } from "./snapshots-panel";
import { MarkdownCodeMirror } from "./markdown-codemirror";
import { PacketForm } from "./packet-form";
import { usePublishPacketTitle } from "./packet-title";
import { TokenMeter } from "./token-meter";
import { usePacketLib } from "./use-packet-lib";
import { useSharedPacket } from "./use-shared-packet";

type Mode = "form" | "markdown";

/** A stretch of the markdown, by UTF-16 offset. */
type TextRange = { offset: number; length: number };

/**
 * The packet editor: a structured form per section or the markdown, switchable; the seed's
 * checks run in the browser on every change, with findings listed and marked in place.
 */
/** `canEdit` false (a viewer in team mode): the shared document is shown live but cannot be typed into. */
export function PacketEditor({ projectId, packet: initial, collabUrl, canEdit = true }: { projectId: string; packet: PacketDto; collabUrl: string | null; canEdit?: boolean }) {
  const router = useRouter();
  const lib = usePacketLib();
  const identity = useIdentity();
  const shared = useSharedPacket(collabUrl, initial.id, initial.markdown, identity);
  const markdown = shared.markdown;
  const setMarkdown = (next: string) => applyTextChange(shared.text, next, "local");
  const [packet, setPacket] = useState(initial);
  // The delegated task's size as typed ("" for none): saved with the next revision.
  const [taskTokensText, setTaskTokensText] = useState(initial.taskTokens === null ? "" : String(initial.taskTokens));
  const taskSize = parseTaskTokens(taskTokensText);
  const taskTokens = taskSize.ok ? taskSize.value : packet.taskTokens;
  const [mode, setMode] = useState<Mode>("form");
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ tone: "ok" | "danger"; text: string } | null>(null);
  const editorView = useRef<EditorView | null>(null);
  const [lower, setLower] = useState<"review" | "snapshots">("review");
  const params = useMemo(() => ({ id: projectId, packetId: initial.id }), [projectId, initial.id]);
  const signals = useMemo(() => shared.doc.getMap<number>("signals"), [shared.doc]);
  const reloadPacket = useMemo(
    () => () =>
      void callApi(packetRoutes.get, { params })
        .then((r) => setPacket(r.packet))
        .catch(() => undefined),
    [params],
  );
  const deferred = useDeferredValue(markdown);
  const validation: ValidationResult | null = useMemo(() => (lib ? lib.validatePacket(deferred, { taskTokens }) : null), [lib, deferred, taskTokens]);
  const doc: PacketDocument | null = useMemo(() => (lib ? lib.parsePacket(markdown) : null), [lib, markdown]);
  const dirty = markdown !== packet.markdown || taskTokens !== packet.taskTokens;
  const marks = useMemo(() => (validation?.findings ?? []).map((f, i) => ({ offset: f.offset, length: f.length, tier: f.tier, id: `${f.rule}-${i}` })), [validation]);
  const blocks = validation?.findings.filter((f) => f.tier === "BLOCK") ?? [];
  const passes = validation !== null && validation.emittable;
  // Copy and Download export the live text, so they follow a validation of that very text:
  // while the deferred one lags behind the last keystroke they wait (and re-check on click).
  const exportable = passes && validation.packet === markdown;
  const emitting = emitInfo(packet, dirty);
  usePublishPacketTitle(markdown, packet);
  const handoffPath = apiUrl(packetRoutes.handoff, { packetId: packet.id });
  const handoffUrl = typeof window === "undefined" ? handoffPath : `${window.location.origin}${handoffPath}`;

  // Leaving before the server has the latest keystrokes asks first.
  useEffect(() => {
    if (shared.unsynced === 0 && collabUrl) return;
    if (!collabUrl && !dirty) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [dirty, shared.unsynced, collabUrl]);

  async function run(action: () => Promise<void>) {
    setBusy(true);
    setNotice(null);
    try {
      await action();
    } catch (e) {
      setNotice({ tone: "danger", text: errorMessage(e) });
    } finally {
      setBusy(false);
    }
  }

  // A revision records who saved it: the first save asks for a name when none is chosen yet.
  const named = useNamedAction(identity);
  const save = () =>
    named.withName(
      "Save",
      (who) =>
        void run(async () => {
          const r = await callApi(packetRoutes.save, { params: { id: projectId, packetId: packet.id }, body: { markdown, taskTokens, note: null, author: who.name } });
          setPacket(r.packet);
          setNotice({ tone: "ok", text: `Saved revision ${r.packet.headNumber}.` });
          router.refresh();
        }),
    );

  const emit = () =>
    run(async () => {
      const r = await callApi(packetRoutes.emit, { params: { id: projectId, packetId: packet.id } });
      setPacket(r.packet);
      setNotice({ tone: "ok", text: `Emitted revision ${r.packet.emittedNumber}: agents get it from the handoff URL.` });
      router.refresh();
    });

  const duplicate = () =>
    run(async () => {
      const r = await callApi(packetRoutes.duplicate, { params: { id: projectId, packetId: packet.id }, body: { author: identity?.name ?? null } });
      router.push(`/projects/${projectId}/packets/${r.packet.id}`);
    });

  const archive = (archived: boolean) =>
    run(async () => {
      const r = await callApi(packetRoutes.update, { params: { id: projectId, packetId: packet.id }, body: { archived } });
      setPacket(r.packet);
      setNotice({ tone: "ok", text: archived ? "Archived." : "Restored." });
      router.refresh();
    });

  /** Validates exactly the text about to leave the editor; false (with the reason shown) when it may not. */
  function mayExport(text: string): boolean {
    const refusal = exportRefusal(text, lib ? lib.validatePacket(text, { taskTokens }) : null);
    if (refusal) setNotice({ tone: "danger", text: refusal });
    return refusal === null;
  }

  const copy = () =>
    run(async () => {
      const text = markdown;
      if (!mayExport(text)) return;
      await navigator.clipboard.writeText(text);
      setNotice({ tone: "ok", text: "Copied the packet's markdown." });
    });

  const download = () => {
    const text = markdown;
    if (!mayExport(text)) return;
    const url = URL.createObjectURL(new Blob([text], { type: "text/markdown" }));
    const a = document.createElement("a");
    a.href = url;
    a.download = `${packet.title.replace(/[^\w.-]+/g, "-").slice(0, 60) || "packet"}.md`;
    a.click();
    URL.revokeObjectURL(url);
  };

  /** Shows a range of the markdown (a finding, a comment's quote), selected. */
  const pendingReveal = useRef<TextRange | null>(null);
  function select(view: EditorView, f: TextRange) {
    const len = view.state.doc.length;
    view.dispatch({ selection: { anchor: Math.min(f.offset, len), head: Math.min(f.offset + f.length, len) }, scrollIntoView: true });
    view.focus();
  }
  function reveal(f: TextRange) {
    if (mode === "markdown" && editorView.current) return select(editorView.current, f);
    pendingReveal.current = f;
    setMode("markdown");
  }
  const onView = (view: EditorView | null) => {
    editorView.current = view;
    if (view && pendingReveal.current) {
      const f = pendingReveal.current;
      pendingReveal.current = null;
      requestAnimationFrame(() => select(view, f));
    }
  };

  return (
    <div className="grid gap-4 lg:grid-cols-[1fr_22rem]" data-testid="packet-editor" data-ready={lib && shared.synced ? "true" : undefined}>
      <div className="min-w-0 space-y-3">
        <div className="flex flex-wrap items-center gap-2">
          <div role="tablist" aria-label="Editor view" className="inline-flex rounded-md border border-border p-0.5 text-sm">
            {(["form", "markdown"] as const).map((m) => (
              <button
                key={m}
                role="tab"
                type="button"
                aria-selected={mode === m}
                onClick={() => setMode(m)}
                className={`rounded px-3 py-1 focus-visible:outline-2 focus-visible:outline-accent ${mode === m ? "bg-accent text-accent-fg" : "text-fg-muted hover:bg-muted"}`}
              >
                {m === "form" ? "Form" : "Markdown"}
              </button>
            ))}
          </div>
          <span className="text-xs text-fg-muted">{dirty ? "Changes since the last revision" : `Saved as revision ${packet.headNumber}`}</span>
          <div className="ml-auto flex flex-wrap gap-2">
            <Button size="sm" variant="primary" onClick={() => void save()} disabled={busy || !dirty || !canEdit || !taskSize.ok}>
              <Save className="size-4" aria-hidden /> Save
            </Button>
            <Button size="sm" onClick={() => void emit()} disabled={busy || packet.approvedNumber === null || !canEdit} title={emitting.title} aria-describedby={emitting.note ? "emit-note" : undefined}>
              <Send className="size-4" aria-hidden /> {emitting.label}
            </Button>
            <Button size="sm" onClick={() => void copy()} disabled={!exportable} aria-label="Copy markdown">
              <ClipboardCopy className="size-4" aria-hidden /> Copy
            </Button>
            <Button size="sm" onClick={download} disabled={!exportable} aria-label="Download .md">
              <Download className="size-4" aria-hidden /> Download
            </Button>
            <Button size="sm" variant="ghost" onClick={() => void duplicate()} disabled={busy || !canEdit}>
              <Copy className="size-4" aria-hidden /> Duplicate
            </Button>
            <Button size="sm" variant="ghost" onClick={() => void archive(!packet.archived)} disabled={busy || !canEdit}>
              {packet.archived ? <ArchiveRestore className="size-4" aria-hidden /> : <Archive className="size-4" aria-hidden />}
              {packet.archived ? "Restore" : "Archive"}
            </Button>
          </div>
        </div>
        {emitting.note ? (
          <p id="emit-note" className="text-xs text-fg-muted">
            {emitting.note}
          </p>
        ) : null}
        {canEdit ? null : <p className="text-sm text-fg-muted">You can read this packet and follow edits live; changing it needs the editor role.</p>}
        {notice ? (
          <p role={notice.tone === "danger" ? "alert" : "status"} className={`text-sm ${notice.tone === "danger" ? "text-danger" : "text-ok"}`}>
            {notice.text}
          </p>
        ) : null}
        <CollabStatus
          enabled={collabUrl !== null}
          status={shared.status}
          synced={shared.synced}
          unsynced={shared.unsynced}
          storedAt={shared.storedAt}
          savePending={shared.savePending}
          peers={shared.peers}
          identity={identity}
        />
        {mode === "form" && doc && lib ? (
          <PacketForm markdown={markdown} findings={validation?.findings ?? []} onMarkdown={setMarkdown} onReveal={reveal} disabled={!shared.synced || !canEdit} />
        ) : (
          <MarkdownCodeMirror text={shared.text} awareness={shared.provider?.awareness ?? null} marks={marks} editable={shared.synced && canEdit} onView={onView} />
        )}
        <div className="rounded-lg border border-border bg-surface">
          <div role="tablist" aria-label="Review and snapshots" className="flex gap-1 border-b border-border px-2 pt-2 text-sm">
            {(["review", "snapshots"] as const).map((t) => (
              <button
                key={t}
                role="tab"
                type="button"
                aria-selected={lower === t}
                onClick={() => setLower(t)}
                className={`rounded-t px-3 py-1.5 focus-visible:outline-2 focus-visible:outline-accent ${lower === t ? "border-b-2 border-accent font-medium" : "text-fg-muted hover:bg-muted"}`}
              >
                {t === "review" ? "Review & comments" : "Snapshots"}
              </button>
            ))}
          </div>
          <div className="p-3">
            {lower === "review" ? (
              <ReviewPanel
                params={params}
                identity={identity}
                signals={signals}
                sections={doc?.sections.map((x) => x.title) ?? []}
                selection={() => {
                  const v = editorView.current;
                  if (!v) return null;
                  const r = v.state.selection.main;
                  return r.empty ? null : { from: r.from, to: r.to, text: v.state.sliceDoc(r.from, r.to) };
                }}
                onStatusChange={reloadPacket}
                unsavedText={dirty}
                text={shared.text}
                markdown={markdown}
                reveal={(from, to) => reveal({ offset: from, length: to - from })}
                headNumber={packet.headNumber}
                headBlocks={packet.head?.blockCount ?? 0}
              />
            ) : (
              <SnapshotsPanel params={params} identity={identity} signals={signals} markdown={markdown} restore={(t) => applyTextChange(shared.text, t, "local")} />
            )}
          </div>
        </div>
      </div>

      {named.dialog}
      <aside className="space-y-4" aria-label="Checks">
        <TokenMeter tokens={validation?.token_estimate ?? null} budget={validation?.budget ?? 2000} tokenizer={validation?.tokenizer ?? "loading tokenizer…"} />
        <div className="space-y-1 text-xs" data-testid="task-size">
          <div className="flex items-center gap-2">
            <label htmlFor="packet-task-tokens" className="text-fg-muted">
              Task size (tokens)
            </label>
            <input
              id="packet-task-tokens"
              inputMode="numeric"
              value={taskTokensText}
              onChange={(e) => setTaskTokensText(e.target.value)}
              placeholder={validation ? String(validation.token_estimate) : ""}
              disabled={!canEdit}
              aria-invalid={!taskSize.ok}
              aria-describedby="packet-task-tokens-note"
              className={`h-7 w-24 rounded border bg-surface px-2 tabular-nums ${taskSize.ok ? "border-border" : "border-danger"}`}
            />
          </div>
          <p id="packet-task-tokens-note" className={taskSize.ok ? "text-fg-muted" : "text-danger"}>
            {!taskSize.ok
              ? taskSize.error
              : validation?.task_tokens_source === "caller"
                ? `The Type Surface gate (task ≥ 300 tokens) uses this size: ${validation.task_tokens} tokens. Saved with the next revision.`
                : `No task size given: the Type Surface gate (task ≥ 300 tokens) uses the packet's own ${validation?.token_estimate ?? "…"} tokens.`}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2 text-sm" data-testid="gate-status">
          {validation ? (
            <>
              <Badge tone={passes ? "ok" : "danger"}>{passes ? "gates pass" : `${blocks.length} BLOCK`}</Badge>
              <Badge>completeness: {validation.completeness}</Badge>
              <Badge tone={packet.reviewStatus === "approved" ? "ok" : packet.reviewStatus === "changes_requested" ? "warn" : "neutral"}>review: {packet.reviewStatus.replace("_", " ")}</Badge>
              {packet.emittedNumber ? <Badge tone="ok">emitted r{packet.emittedNumber}</Badge> : null}
            </>
          ) : (
            <span className="text-fg-muted">Loading the checks…</span>
          )}
        </div>
        <form
          className="flex items-center gap-2 text-xs"
          onSubmit={(e) => {
            e.preventDefault();
            const slug = String(new FormData(e.currentTarget).get("topic") ?? "").trim();
            void run(async () => {
              const r = await callApi(packetRoutes.update, { params, body: { topicSlug: slug || null } });
              setPacket(r.packet);
              setNotice({ tone: "ok", text: slug ? `Linked to topic ${slug}.` : "Unlinked from its topic." });
            });
          }}
        >
          <label htmlFor="packet-topic" className="text-fg-muted">
            Topic
          </label>
          <input id="packet-topic" name="topic" defaultValue={packet.topicSlug ?? ""} placeholder="slug, e.g. JIRA-123" className="h-7 flex-1 rounded border border-border bg-surface px-2" maxLength={200} />
          <Button type="submit" size="sm" variant="ghost" disabled={busy}>
            Link
          </Button>
          {packet.topicSlug ? (
            <Link href={`/projects/${projectId}/topics/${encodeURIComponent(packet.topicSlug)}`} className="underline">
              open
            </Link>
          ) : null}
        </form>
        {packet.emittedNumber ? (
          <p className="break-all text-xs">
            Handoff URL:{" "}
            <Link className="font-mono underline" href={handoffPath} prefetch={false}>
              {handoffUrl}
            </Link>{" "}
            <span className="text-fg-muted">(add ?format=json for the seed&apos;s result object)</span>
          </p>
        ) : null}
        <FindingsPanel findings={validation?.findings ?? null} onReveal={reveal} />
        {validation?.warnings.length ? (
          <section aria-label="Warnings">
            <h2 className="mb-1 text-xs font-semibold uppercase tracking-wide text-fg-muted">Missing context</h2>
            <ul className="list-disc space-y-0.5 pl-4 text-xs">
              {validation.warnings.map((w, i) => (
                <li key={i}>{w}</li>
              ))}
            </ul>
          </section>
        ) : null}
      </aside>
    </div>
  );
}
