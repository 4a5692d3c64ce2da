"use client";

import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { Radio } from "lucide-react";
import { coalesce } from "@/lib/core/coalesce";

/** Subscribes to the run's change stream and re-renders the page when the packet changes. */
export function LiveRefresh({ projectId, runId }: { projectId: string; runId: string }) {
  const router = useRouter();
  const [state, setState] = useState<"connecting" | "live" | "offline">("connecting");
  const [updated, setUpdated] = useState<string | null>(null);
  useEffect(() => {
    // At most one refresh per 300 ms, and always one after the last change of a burst.
    const refresh = coalesce(() => {
      setUpdated(new Date().toISOString().slice(11, 19));
      router.refresh();
    }, 300);
    const es = new EventSource(`/api/v1/projects/${projectId}/runs/${runId}/stream`);
    let dropped = false;
    es.addEventListener("ready", () => {
      setState("live");
      // Changes made while the stream was down were never announced: read the packet again.
      if (dropped) refresh.signal();
      dropped = false;
    });
    es.addEventListener("change", () => refresh.signal());
    es.onerror = () => {
      dropped = true;
      setState("offline");
    };
    return () => {
      refresh.cancel();
      es.close();
    };
  }, [projectId, runId, router]);
  return (
    <p className="flex items-center gap-1.5 text-xs text-fg-muted" role="status" data-testid="live-status">
      <Radio aria-hidden className={`size-3.5 ${state === "live" ? "text-ok" : "text-fg-muted"}`} />
      {state === "live" ? "Live: updates as the run writes" : state === "connecting" ? "Connecting…" : "Live updates paused (reconnecting)"}
      {updated ? ` · updated ${updated} UTC` : ""}
    </p>
  );
}
