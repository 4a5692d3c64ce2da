import Link from "next/link";
import type { SearchHit } from "@/lib/search/schemas";
import { Badge, statusTone } from "@/components/ui/badge";
import { KeyboardList } from "@/components/ui/keyboard-list";
import { Time } from "@/components/ui/time";
import { Highlighted } from "./highlighted";
import { KIND_LABEL } from "./kind-label";

/** Ranked hits, best first; j / k move between them and Enter opens one. */
export function SearchResults({ hits, showProject }: { hits: SearchHit[]; showProject: boolean }) {
  return (
    <KeyboardList label="Search results">
      <ol className="divide-y divide-border rounded-lg border border-border bg-surface" data-testid="search-hits">
        {hits.map((h) => (
          <li key={`${h.projectId}:${h.kind}:${h.ref}`} data-nav-row tabIndex={-1} className="px-4 py-3 focus-visible:bg-muted">
            <div className="flex flex-wrap items-center gap-2 text-xs text-fg-muted">
              <Badge tone="accent">{KIND_LABEL[h.kind]}</Badge>
              {h.status ? <Badge tone={statusTone(h.status)}>{h.status}</Badge> : null}
              {showProject ? <span>{h.projectName}</span> : null}
              {h.date ? <Time iso={h.date} /> : null}
            </div>
            <Link href={h.href} className="mt-1 block font-medium hover:text-accent hover:underline">
              <Highlighted text={h.title} />
            </Link>
            <p className="mt-1 line-clamp-3 whitespace-pre-line break-words text-sm text-fg-muted">
              <Highlighted text={h.snippet} />
            </p>
          </li>
        ))}
      </ol>
    </KeyboardList>
  );
}
