"use client";

import { useRouter } from "next/navigation";
import { useCallback, useEffect, useRef, useState } from "react";
import { RefreshCw, Square } from "lucide-react";
import { Badge, statusTone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { callApi, errorMessage } from "@/lib/api/client";
import { plural } from "@/lib/core/plural";
import { projectRoutes, type IndexJob as IndexJobDto } from "@/lib/projects/schemas";

const PHASE_LABEL: Record<IndexJobDto["phase"], string> = {
  queued: "Queued",
  freshness: "Checking what changed since the last index",
  config: "Reading configuration",
  listing: "Listing files",
  sources: "Reading work, brainstorms, proposals, refactoring",
  documents: "Reading documents",
  git: "Reading git history",
  runs: "Reading deep-loop runs",
  search: "Updating the search index",
  saving: "Saving",
  done: "Done",
};

const POLL_MS = 400;

/** Shows the latest indexing job, polls it while it runs, starts a re-index and cancels a running one. */
export function IndexJobPanel({ projectId, initialJob, lastIndexedAt }: { projectId: string; initialJob: IndexJobDto | null; lastIndexedAt: string | null }) {
  const router = useRouter();
  const [job, setJob] = useState(initialJob);
  const [error, setError] = useState<string | null>(null);
  const [cancelling, setCancelling] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const active = job?.status === "queued" || job?.status === "running";

  const poll = useCallback(
    async (id: string) => {
      try {
        const { job: next } = await callApi(projectRoutes.job, { params: { id }, cache: "no-store" });
        setJob(next);
        if (next.status === "queued" || next.status === "running") {
          timer.current = setTimeout(() => void poll(id), POLL_MS);
        } else {
          router.refresh();
        }
      } catch (e) {
        setError(errorMessage(e));
      }
    },
    [router],
  );

  useEffect(() => {
    if (job && active) timer.current = setTimeout(() => void poll(job.id), POLL_MS);
    return () => {
      if (timer.current) clearTimeout(timer.current);
    };
    // Start polling once for the job we were given; later jobs start their own polling.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  async function reindex() {
    setError(null);
    try {
      const { job: started } = await callApi(projectRoutes.index, { params: { id: projectId } });
      setJob(started);
      void poll(started.id);
    } catch (e) {
      setError(errorMessage(e));
    }
  }

  async function cancel() {
    if (!job) return;
    setError(null);
    setCancelling(true);
    try {
      const { job: ended } = await callApi(projectRoutes.cancelJob, { params: { id: job.id } });
      if (timer.current) clearTimeout(timer.current);
      setJob(ended);
      router.refresh();
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setCancelling(false);
    }
  }

  const pct = job && job.filesTotal > 0 ? Math.round((job.filesDone / job.filesTotal) * 100) : null;
  return (
    <div className="space-y-3" data-testid="index-job">
      <div className="flex flex-wrap items-center gap-3">
        <Button onClick={reindex} disabled={active} aria-describedby="job-status">
          <RefreshCw aria-hidden className={active ? "size-4 animate-spin" : "size-4"} />
          {active ? "Indexing…" : "Re-index"}
        </Button>
        {active ? (
          <Button variant="ghost" onClick={cancel} disabled={cancelling}>
            <Square aria-hidden className="size-4" />
            {cancelling ? "Cancelling…" : "Cancel"}
          </Button>
        ) : null}
        <div id="job-status" role="status" aria-live="polite" className="flex items-center gap-2 text-sm">
          {job ? (
            <>
              <Badge tone={statusTone(job.status)}>{job.status}</Badge>
              <span className="text-fg-muted">
                {active ? PHASE_LABEL[job.phase] : job.status === "succeeded" ? summary(job) : job.error}
                {active && job.filesTotal > 0 ? ` · ${job.filesDone.toLocaleString("en")} / ${plural(job.filesTotal, "file")}` : ""}
              </span>
            </>
          ) : (
            <span className="text-fg-muted">{lastIndexedAt ? "Indexed from the command line." : "Not indexed yet."}</span>
          )}
        </div>
      </div>
      {/* The bar's row is kept while no job runs, so starting one does not push the page down. */}
      <div className="h-1.5" data-testid="index-progress-slot">
        {active ? (
          <div
            className="h-full overflow-hidden rounded bg-muted"
            role="progressbar"
            aria-label="Indexing progress"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={pct ?? undefined}
            aria-valuetext={pct === null ? PHASE_LABEL[job.phase] : `${pct}%`}
          >
            <div className="h-full bg-accent transition-[width]" style={{ width: `${pct ?? 5}%` }} />
          </div>
        ) : null}
      </div>
      {error ? (
        <p role="alert" className="text-sm text-danger">
          {error}
        </p>
      ) : null}
    </div>
  );
}

function summary(job: IndexJobDto): string {
  const s = job.stats;
  if (s.filesTotal === undefined) return "";
  const n = (v: number | undefined) => (v ?? 0).toLocaleString("en");
  return `${plural(s.filesTotal, "file")}, ${n(s.filesChanged)} changed, ${n(s.filesRemoved)} removed · ${plural(s.topics ?? 0, "topic")} · ${s.gitSkipped ? "git unchanged" : plural(s.commits ?? 0, "commit")} · ${n(s.durationMs)} ms`;
}
