import { FetchNowButton } from "@/components/projects/fetch-now-button";
import { Badge } from "@/components/ui/badge";
import { Card, CardHeader } from "@/components/ui/card";
import { Time } from "@/components/ui/time";
import type { ProjectRemoteDto } from "@/lib/projects/types";

/** Where a cloned project comes from, how fresh the checkout is, and a way to fetch now. */
export function RemoteCard({ projectId, remote }: { projectId: string; remote: ProjectRemoteDto }) {
  return (
    <Card>
      <CardHeader title="Git remote" description="The Workbench keeps its own checkout, fetches it on a schedule and re-indexes what changed." />
      <dl className="grid grid-cols-[8rem_1fr] gap-x-4 gap-y-2 p-4 text-sm">
        <dt className="text-fg-muted">URL</dt>
        <dd className="break-all font-mono text-xs">{remote.url}</dd>
        <dt className="text-fg-muted">Branch</dt>
        <dd className="font-mono text-xs">{remote.branch}</dd>
        <dt className="text-fg-muted">Last fetch</dt>
        <dd className="flex flex-wrap items-center gap-2">
          <Time iso={remote.lastFetchedAt} missing="never" />
          {remote.lastFetchError ? <Badge tone="danger">failed</Badge> : remote.lastFetchedAt ? <Badge tone="ok">ok</Badge> : null}
        </dd>
        {remote.lastFetchError ? (
          <>
            <dt className="text-fg-muted">Error</dt>
            <dd role="alert" className="break-words text-danger">
              {remote.lastFetchError}
            </dd>
          </>
        ) : null}
      </dl>
      <div className="border-t border-border p-4">
        <FetchNowButton projectId={projectId} />
      </div>
    </Card>
  );
}
