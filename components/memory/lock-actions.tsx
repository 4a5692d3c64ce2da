"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { callApi, errorMessage } from "@/lib/api/client";
import { memoryRoutes } from "@/lib/memory/schemas";

/**
 * Removes a `.coord` lock left behind by a crash. The server removes it only when this host
 * confirms the owner process is gone; otherwise it says why and the lock stays (a stale-looking
 * lock is not standing permission to delete it).
 */
export function BreakLockButton({ projectId, file }: { projectId: string; file: string }) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ tone: "ok" | "danger"; text: string } | null>(null);

  async function breakLock() {
    setBusy(true);
    setMessage(null);
    try {
      await callApi(memoryRoutes.breakLock, { params: { id: projectId }, body: { file } });
      setMessage({ tone: "ok", text: `Removed ${file}.` });
      router.refresh();
    } catch (e) {
      setMessage({ tone: "danger", text: errorMessage(e) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <span className="inline-flex flex-col gap-1">
      <Button size="sm" variant="danger" disabled={busy} onClick={() => void breakLock()}>
        Remove stale lock
      </Button>
      {message ? (
        <span role={message.tone === "danger" ? "alert" : "status"} className={`text-xs ${message.tone === "danger" ? "text-danger" : "text-ok"}`}>
          {message.text}
        </span>
      ) : null}
    </span>
  );
}
