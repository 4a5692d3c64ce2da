"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { Radio } from "lucide-react";
import { coalesce } from "@/lib/core/coalesce";
import { apiUrl } from "@/lib/api/client";
import { runRoutes } from "@/lib/deep-context/schemas";
import { Time } from "@/components/ui/time";

/**
 * Subscribes to the run's change stream and re-renders the page when the packet changes,
 * and when the stream (re)connects to a packet other than the one the page was rendered from.
 */
export function LiveRefresh({ projectId, runId, version }: { projectId: string; runId: string; version: string }) {
  const router = useRouter();
  const [state, setState] = useState<"connecting" | "live" | "offline">("connecting");
  const [updated, setUpdated] = useState<string | null>(null);
  const rendered = useRef(version);
  useEffect(() => {
    rendered.current = version;
  }, [version]);
  useEffect(() => {
    // At most one refresh per 300 ms, and always one after the last change of a burst.
    const refresh = coalesce(() => {
      setUpdated(new Date().toISOString());
      router.refresh();
    }, 300);
    const es = new EventSource(apiUrl(runRoutes.stream, { id: projectId, runId }));
    es.addEventListener("ready", (e) => {
      setState("live");
      const current = readyVersion(e);
      if (current !== null && current !== rendered.current) refresh.signal();
    });
    es.addEventListener("change", () => refresh.signal());
    es.onerror = () => setState("offline");
    return () => {
      refresh.cancel();
      es.close();
    };
  }, [projectId, runId, router]);
  return (
    <p className="flex items-center gap-1.5 text-xs text-fg-muted" role="status" data-testid="live-status">
      <Radio aria-hidden className={`size-3.5 ${state === "live" ? "text-ok" : "text-fg-muted"}`} />
      {state === "live" ? "Live: updates as the run writes" : state === "connecting" ? "Connecting…" : "Live updates paused (reconnecting)"}
      {updated ? (
        <>
          {" "}
          · updated <Time iso={updated} />
        </>
      ) : null}
    </p>
  );
}

function readyVersion(e: Event): string | null {
  try {
    const data = JSON.parse((e as MessageEvent<string>).data) as { version?: unknown };
    return typeof data.version === "string" ? data.version : null;
  } catch {
    return null;
  }
}
