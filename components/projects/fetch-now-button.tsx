"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { RefreshCw } from "lucide-react";
import { Button } from "@/components/ui/button";

/** Fetches the project's remote now; an index job starts on the server when HEAD moved. */
export function FetchNowButton({ projectId }: { projectId: string }) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<{ text: string; error: boolean } | null>(null);

  async function fetchNow() {
    setBusy(true);
    setNote(null);
    const res = await fetch(`/api/v1/projects/${projectId}/fetch`, { method: "POST" });
    const body = (await res.json().catch(() => ({}))) as { changed?: boolean; error?: { message: string } };
    setBusy(false);
    if (!res.ok) setNote({ text: body.error?.message ?? `The server answered ${res.status}.`, error: true });
    else setNote({ text: body.changed ? "New commits: re-indexing what changed." : "Already up to date.", error: false });
    // The page keys its index panel by the latest job, so a job started here is followed.
    router.refresh();
  }

  return (
    <div className="flex flex-wrap items-center gap-3">
      <Button size="sm" onClick={() => void fetchNow()} disabled={busy}>
        <RefreshCw aria-hidden className={`size-4 ${busy ? "animate-spin" : ""}`} /> {busy ? "Fetching…" : "Fetch now"}
      </Button>
      {note ? (
        <p role={note.error ? "alert" : "status"} className={`text-sm ${note.error ? "text-danger" : "text-fg-muted"}`}>
          {note.text}
        </p>
      ) : null}
    </div>
  );
}
