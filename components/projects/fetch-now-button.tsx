"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { RefreshCw } from "lucide-react";
import { Button } from "@/components/ui/button";
import { callApi, errorMessage } from "@/lib/api/client";
import { projectRoutes } from "@/lib/projects/schemas";

/** Fetches the project's remote now; an index job starts on the server when HEAD moved. */
export function FetchNowButton({ projectId }: { projectId: string }) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<{ text: string; error: boolean } | null>(null);

  async function fetchNow() {
    setBusy(true);
    setNote(null);
    try {
      const { changed } = await callApi(projectRoutes.fetch, { params: { id: projectId } });
      setNote({ text: changed ? "New commits: re-indexing what changed." : "Already up to date.", error: false });
    } catch (e) {
      setNote({ text: errorMessage(e), error: true });
    }
    setBusy(false);
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
