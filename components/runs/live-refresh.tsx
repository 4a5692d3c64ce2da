"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { Radio } from "lucide-react";

/** Subscribes to the run's change stream and re-renders the page when the packet changes. */
export function LiveRefresh({ projectId, runId }: { projectId: string; runId: string }) {
  const router = useRouter();
  const [state, setState] = useState<"connecting" | "live" | "offline">("connecting");
  const [updated, setUpdated] = useState<string | null>(null);
  const last = useRef(0);
  useEffect(() => {
    const es = new EventSource(`/api/v1/projects/${projectId}/runs/${runId}/stream`);
    es.addEventListener("ready", () => setState("live"));
    es.addEventListener("change", () => {
      const now = Date.now();
      if (now - last.current < 300) return;
      last.current = now;
      setUpdated(new Date().toISOString().slice(11, 19));
      router.refresh();
    });
    es.onerror = () => setState("offline");
    return () => es.close();
  }, [projectId, runId, router]);
  return (
    <p className="flex items-center gap-1.5 text-xs text-fg-muted" role="status" data-testid="live-status">
      <Radio aria-hidden className={`size-3.5 ${state === "live" ? "text-ok" : "text-fg-muted"}`} />
      {state === "live" ? "Live: updates as the run writes" : state === "connecting" ? "Connecting…" : "Live updates paused (reconnecting)"}
      {updated ? ` · updated ${updated} UTC` : ""}
    </p>
  );
}
