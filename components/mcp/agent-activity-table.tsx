"use client";

import { useState } from "react";
import type { z } from "zod";
import { callApi, errorMessage } from "@/lib/api/client";
import { activityRoutes, type agentActivitySchema } from "@/lib/collab/schemas";
import { AgentName } from "@/components/mcp/agent-name";
import { Button } from "@/components/ui/button";
import { DataTable } from "@/components/ui/data-table";
import { RelativeTime } from "@/components/ui/time";
import { TextLink } from "@/components/ui/text-link";

type Activity = z.infer<typeof agentActivitySchema>;

const ACTION_WORDS: Record<Activity["action"], string> = {
  drafted: "drafted",
  updated: "updated",
  requested_review: "requested review",
  picked_up_handoff: "picked up the handoff",
};

/**
 * What agents did, newest first; "Load more" follows the activity API's cursor to older rows.
 * Packet titles come from the page (the API answers ids); a packet since removed shows its id.
 */
export function AgentActivityTable({
  projectId,
  initial,
  nextCursor: firstCursor,
  titles,
  now,
  pageSize,
}: {
  projectId: string;
  initial: Activity[];
  nextCursor: string | null;
  titles: Record<string, string>;
  /** When the server rendered the page: relative times are measured from it. */
  now: string;
  pageSize: number;
}) {
  const [rows, setRows] = useState(initial);
  const [cursor, setCursor] = useState(firstCursor);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function more() {
    if (!cursor) return;
    setBusy(true);
    setError(null);
    try {
      const page = await callApi(activityRoutes.list, { params: { id: projectId }, query: { cursor, limit: pageSize } });
      setRows((r) => [...r, ...page.activity]);
      setCursor(page.nextCursor);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="space-y-3">
      <DataTable
        label="Agent activity"
        columns={[
          { id: "when", header: "When", cellClassName: "whitespace-nowrap text-xs text-fg-muted" },
          { id: "agent", header: "Agent" },
          { id: "actor", header: "For", title: "The account the agent's token belongs to (local: the stdio server)" },
          { id: "action", header: "Did" },
          { id: "packet", header: "Packet", cellClassName: "max-w-96 truncate" },
          { id: "revision", header: "Revision", cellClassName: "tabular-nums" },
        ]}
        rows={rows.map((a) => ({
          key: a.id,
          data: { "data-action": a.action },
          cells: {
            when: <RelativeTime iso={a.createdAt} now={now} />,
            agent: <AgentName name={a.agentName} />,
            actor: a.actor,
            action: ACTION_WORDS[a.action],
            packet: a.packetId ? (
              <TextLink href={`/projects/${projectId}/packets/${a.packetId}`} className="font-medium">
                {titles[a.packetId] ?? a.packetId}
              </TextLink>
            ) : (
              <span className="text-fg-muted">—</span>
            ),
            revision: a.revision === null ? <span className="text-fg-muted">—</span> : `r${a.revision}`,
          },
        }))}
      />
      <div className="flex items-center gap-3 text-sm text-fg-muted">
        <span>
          {rows.length} {rows.length === 1 ? "entry" : "entries"}
          {cursor ? " shown" : ""}
        </span>
        {cursor ? (
          <Button size="sm" onClick={() => void more()} disabled={busy} aria-busy={busy}>
            {busy ? "Loading…" : "Load more"}
          </Button>
        ) : null}
        {error ? (
          <span role="alert" className="text-danger">
            {error}
          </span>
        ) : null}
      </div>
    </div>
  );
}
