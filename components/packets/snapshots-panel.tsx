"use client";

import { structuredPatch } from "diff";
import { useCallback, useEffect, useState } from "react";
import type * as Y from "yjs";
import type { Identity } from "@/lib/collab/identity";
import { callApi, errorMessage } from "@/lib/api/client";
import { reviewRoutes, type snapshotSchema } from "@/lib/collab/schemas";
import type { z } from "zod";
import { Button } from "@/components/ui/button";
import { DiffHunks } from "@/components/ui/diff-hunks";
import { Time } from "@/components/ui/time";

const CURRENT = "current";

type SnapshotDto = z.infer<typeof snapshotSchema>;

/** Named snapshots of the shared text: take one, compare any two (or one with now), restore. */
export function SnapshotsPanel({
  params,
  identity,
  signals,
  markdown,
  restore,
}: {
  /** The project and packet whose shared text is kept. */
  params: { id: string; packetId: string };
  identity: Identity | null;
  signals: Y.Map<number>;
  markdown: string;
  restore: (text: string) => void;
}) {
  const [snapshots, setSnapshots] = useState<SnapshotDto[]>([]);
  const [name, setName] = useState("");
  const [from, setFrom] = useState("");
  const [to, setTo] = useState(CURRENT);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      const { snapshots: list } = await callApi(reviewRoutes.snapshots, { params });
      setSnapshots(list);
      setFrom((f) => f || list[0]?.id || "");
    } catch (e) {
      setError(errorMessage(e));
    }
    // The packet is the identity of `params`, not the object.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [params.id, params.packetId]);

  useEffect(() => {
    void load();
    const onSignal = (ev: Y.YMapEvent<number>) => ev.keysChanged.has("snapshots") && void load();
    signals.observe(onSignal);
    return () => signals.unobserve(onSignal);
  }, [load, signals]);

  async function take() {
    setError(null);
    try {
      await callApi(reviewRoutes.snapshot, { params, body: { name, markdown, author: identity?.name ?? null } });
    } catch (e) {
      return setError(errorMessage(e));
    }
    setName("");
    signals.set("snapshots", (signals.get("snapshots") ?? 0) + 1);
    await load();
  }

  const textOf = (id: string) => (id === CURRENT ? markdown : (snapshots.find((s) => s.id === id)?.markdown ?? ""));
  const labelOf = (id: string) => (id === CURRENT ? "now" : (snapshots.find((s) => s.id === id)?.name ?? "?"));
  const patch = from ? structuredPatch(labelOf(from), labelOf(to), textOf(from), textOf(to), "", "", { context: 2 }) : null;
  const select = "h-8 rounded-md border border-border bg-surface px-2 text-sm";

  return (
    <div className="space-y-3" data-testid="snapshots-panel">
      <form
        className="flex flex-wrap items-center gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          void take();
        }}
      >
        <input className={`${select} min-w-60 flex-1`} placeholder="Snapshot name" aria-label="Snapshot name" value={name} onChange={(e) => setName(e.target.value)} maxLength={120} />
        <Button type="submit" size="sm" disabled={!name.trim()}>
          Take snapshot
        </Button>
      </form>
      {snapshots.length === 0 ? <p className="text-sm text-fg-muted">No snapshots yet.</p> : null}
      <ul className="space-y-1 text-sm" aria-label="Snapshots">
        {snapshots.map((s) => (
          <li key={s.id} className="flex flex-wrap items-center gap-2">
            <strong>{s.name}</strong>
            <span className="text-xs text-fg-muted">
              <Time iso={s.createdAt} /> {s.author ? `by ${s.author}` : ""}
            </span>
            <Button
              size="sm"
              variant="ghost"
              className="ml-auto"
              onClick={() => {
                restore(s.markdown);
                setNotice(`Restored “${s.name}” into the shared text (save a revision to keep it).`);
              }}
            >
              Restore {s.name}
            </Button>
          </li>
        ))}
      </ul>
      {snapshots.length ? (
        <div className="space-y-2">
          <div className="flex flex-wrap items-center gap-2 text-xs">
            <label>
              Compare{" "}
              <select className={select} value={from} onChange={(e) => setFrom(e.target.value)} aria-label="Compare snapshot">
                {snapshots.map((s) => (
                  <option key={s.id} value={s.id}>
                    {s.name}
                  </option>
                ))}
              </select>
            </label>
            <label>
              with{" "}
              <select className={select} value={to} onChange={(e) => setTo(e.target.value)} aria-label="Compare with">
                <option value={CURRENT}>the text now</option>
                {snapshots.map((s) => (
                  <option key={s.id} value={s.id}>
                    {s.name}
                  </option>
                ))}
              </select>
            </label>
          </div>
          {patch ? <DiffHunks hunks={patch.hunks} testId="snapshot-diff" className="max-h-72" /> : null}
        </div>
      ) : null}
      {notice ? (
        <p role="status" className="text-sm text-ok">
          {notice}
        </p>
      ) : null}
      {error ? (
        <p role="alert" className="text-sm text-danger">
          {error}
        </p>
      ) : null}
    </div>
  );
}
