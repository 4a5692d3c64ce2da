"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Bookmark, X } from "lucide-react";
import { callApi, errorMessage } from "@/lib/api/client";
import { viewRoutes, type SavedViewDto, type ViewSurface } from "@/lib/views/schemas";
import { SaveViewButton } from "./save-view-button";

/** A surface's saved views as links, each removable, with the button that saves the current one. */
export function SavedViews({
  projectId,
  surface,
  views,
  suggestedName,
  path,
}: {
  projectId: string;
  surface: ViewSurface;
  views: SavedViewDto[];
  suggestedName?: string;
  /** The view's own address, when the page's carries more (a one-off message) than the view is. */
  path?: string;
}) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const remove = async (v: SavedViewDto) => {
    setError(null);
    await callApi(viewRoutes.remove, { params: { id: projectId, viewId: v.id } }).catch((e: unknown) => setError(errorMessage(e, "Could not delete the view.")));
    router.refresh();
  };
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm" data-testid={`saved-views-${surface}`}>
      {views.length > 0 ? (
        <span className="flex items-center gap-1 text-xs text-fg-muted">
          <Bookmark aria-hidden className="size-3.5" /> Saved views:
        </span>
      ) : null}
      {views.map((v) => (
        <span key={v.id} className="inline-flex items-center rounded-full border border-border bg-surface text-xs">
          <Link href={v.path} className="rounded-l-full py-0.5 pl-2.5 pr-1 hover:text-accent">
            {v.name}
          </Link>
          <button type="button" onClick={() => void remove(v)} className="rounded-r-full py-0.5 pl-1 pr-2 text-fg-muted hover:text-danger" aria-label={`Delete saved view ${v.name}`}>
            <X aria-hidden className="size-3" />
          </button>
        </span>
      ))}
      <SaveViewButton projectId={projectId} surface={surface} suggestedName={suggestedName} path={path} />
      {error ? (
        <span role="alert" className="text-xs text-danger">
          {error}
        </span>
      ) : null}
    </div>
  );
}
