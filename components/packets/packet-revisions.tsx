"use client";

import { DataTable } from "@/components/ui/data-table";
import { useEffect, useState } from "react";
import type { z } from "zod";
import { callApi, errorMessage } from "@/lib/api/client";
import { packetRoutes, type revisionDiffSchema, type revisionSchema, type revisionSummarySchema } from "@/lib/packets/schemas";
import { Badge } from "@/components/ui/badge";
import { DiffHunks } from "@/components/ui/diff-hunks";
import { Button } from "@/components/ui/button";
import { Time } from "@/components/ui/time";
import { AgentName } from "@/components/mcp/agent-name";

const select = "h-8 rounded-md border border-border bg-surface px-2 text-sm";

type RevisionSummaryDto = z.infer<typeof revisionSummarySchema>;
type RevisionDto = z.infer<typeof revisionSchema>;
type RevisionDiff = z.infer<typeof revisionDiffSchema>;

/** The revision list, one revision's text, and a diff of any two. */
export function PacketRevisions({ projectId, packetId, revisions }: { projectId: string; packetId: string; revisions: RevisionSummaryDto[] }) {
  const newest = revisions[0]?.number ?? 1;
  const [viewing, setViewing] = useState<RevisionDto | null>(null);
  const [from, setFrom] = useState(Math.max(1, newest - 1));
  const [to, setTo] = useState(newest);
  const [diff, setDiff] = useState<RevisionDiff | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    setTo(newest);
    setFrom(Math.max(1, newest - 1));
  }, [newest]);

  async function load<T>(call: () => Promise<T>): Promise<T | null> {
    setError(null);
    try {
      return await call();
    } catch (e) {
      setError(errorMessage(e));
      return null;
    }
  }

  return (
    <div className="space-y-4">
      <DataTable
        label="Revisions"
        primary={false}
        columns={[
          { id: "revision", header: "Revision", cellClassName: "tabular-nums" },
          { id: "saved", header: "Saved", cellClassName: "text-xs" },
          { id: "by", header: "By", cellClassName: "text-xs" },
          { id: "tokens", header: "Tokens", cellClassName: "tabular-nums" },
          { id: "taskSize", header: "Task size", title: "The delegated task's size the Type Surface gate used; — when none was given (the packet's own tokens)", cellClassName: "tabular-nums" },
          { id: "gates", header: "Gates" },
          { id: "view", header: "View", srOnlyHeader: true, align: "right" },
        ]}
        rows={revisions.map((r) => ({
          key: String(r.number),
          cells: {
            revision: `r${r.number}`,
            saved: <Time iso={r.createdAt} />,
            // Revisions saved before anyone chose a name carry none: said so, rather than a dash that reads as "nobody".
            by: r.agentName ? <AgentName name={r.agentName} actor={r.author} /> : (r.author ?? <span className="text-fg-muted">author not recorded</span>),
            tokens: r.tokenEstimate,
            taskSize: r.taskTokens ?? "—",
            gates: r.blockCount ? <Badge tone="danger">{r.blockCount} BLOCK</Badge> : <Badge tone="ok">passes</Badge>,
            view: (
              <Button size="sm" variant="ghost" onClick={() => void load(() => callApi(packetRoutes.revision, { params: { id: projectId, packetId, number: r.number } })).then((b) => b && setViewing(b.revision))}>
                View r{r.number}
              </Button>
            ),
          },
        }))}
      />
      {viewing ? (
        <figure>
          <figcaption className="mb-1 text-xs text-fg-muted">Revision {viewing.number}</figcaption>
          <pre className="max-h-96 overflow-auto rounded-md bg-muted p-3 text-xs" data-testid="revision-text">
            {viewing.markdown}
          </pre>
        </figure>
      ) : null}
      {revisions.length > 1 ? (
        <div className="space-y-2">
          <div className="flex flex-wrap items-end gap-2 text-xs">
            <label>
              From
              <select className={`${select} ml-1`} value={from} onChange={(e) => setFrom(Number(e.target.value))} aria-label="Diff from">
                {revisions.map((r) => (
                  <option key={r.number} value={r.number}>
                    r{r.number}
                  </option>
                ))}
              </select>
            </label>
            <label>
              To
              <select className={`${select} ml-1`} value={to} onChange={(e) => setTo(Number(e.target.value))} aria-label="Diff to">
                {revisions.map((r) => (
                  <option key={r.number} value={r.number}>
                    r{r.number}
                  </option>
                ))}
              </select>
            </label>
            <Button size="sm" onClick={() => void load(() => callApi(packetRoutes.diff, { params: { id: projectId, packetId }, query: { from, to } })).then((b) => b && setDiff(b.diff))}>
              Compare
            </Button>
          </div>
          {diff ? (
            <div data-testid="revision-diff">
              <p className="mb-1 text-xs text-fg-muted">
                r{diff.from} → r{diff.to}: <span className="text-ok">+{diff.added}</span> <span className="text-danger">−{diff.removed}</span>
                {diff.hunks.length === 0 ? " (identical)" : ""}
              </p>
              <DiffHunks hunks={diff.hunks} />
            </div>
          ) : null}
        </div>
      ) : null}
      {error ? (
        <p role="alert" className="text-sm text-danger">
          {error}
        </p>
      ) : null}
    </div>
  );
}
