"use client";

import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { BookmarkPlus } from "lucide-react";
import { callApi, errorMessage } from "@/lib/api/client";
import { viewRoutes, type ViewSurface } from "@/lib/views/schemas";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";

/**
 * Saves the view as it is in the address bar now (filters are in the URL), under a name.
 * `path` overrides the address for pages that know their own canonical URL.
 */
export function SaveViewButton({ projectId, surface, path, suggestedName = "" }: { projectId: string; surface: ViewSurface; path?: string; suggestedName?: string }) {
  const router = useRouter();
  const id = useId();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState(suggestedName);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);

  const save = async (e: React.FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await callApi(viewRoutes.save, { params: { id: projectId }, body: { surface, name, path: path ?? `${window.location.pathname}${window.location.search}` } });
    } catch (e) {
      setBusy(false);
      setError(errorMessage(e, "Could not save the view."));
      return;
    }
    setBusy(false);
    setSaved(name);
    setOpen(false);
    router.refresh();
  };

  if (!open) {
    return (
      <span className="inline-flex items-center gap-2">
        <Button type="button" size="sm" variant="ghost" onClick={() => (setOpen(true), setSaved(null))}>
          <BookmarkPlus aria-hidden className="size-4" /> Save view
        </Button>
        {saved ? (
          <span role="status" className="text-xs text-ok">
            Saved “{saved}”.
          </span>
        ) : null}
      </span>
    );
  }
  return (
    <form onSubmit={save} className="inline-flex flex-wrap items-center gap-2" aria-label="Save this view">
      <label htmlFor={id} className="sr-only">
        View name
      </label>
      <Input id={id} value={name} onChange={(e) => setName(e.target.value)} maxLength={80} required autoFocus className="h-8 w-56" placeholder="Name this view" onKeyDown={(e) => e.key === "Escape" && setOpen(false)} />
      <Button type="submit" size="sm" variant="primary" disabled={busy || !name.trim()}>
        Save
      </Button>
      <Button type="button" size="sm" variant="ghost" onClick={() => setOpen(false)}>
        Cancel
      </Button>
      {error ? (
        <span role="alert" className="text-xs text-danger">
          {error}
        </span>
      ) : null}
    </form>
  );
}
