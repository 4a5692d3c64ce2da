"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { Search } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";

/** The load-context query box: an identifier or free text; a blank query is refused here too. */
export function ContextQueryForm({ projectId, initial = "" }: { projectId: string; initial?: string }) {
  const router = useRouter();
  const [q, setQ] = useState(initial);
  const blank = q.trim() === "";
  return (
    <form
      role="search"
      aria-label="Load context"
      className="flex gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        if (!blank) router.push(`/projects/${projectId}/context?q=${encodeURIComponent(q)}`);
      }}
    >
      <label htmlFor="context-query" className="sr-only">
        Identifier or query
      </label>
      <Input id="context-query" name="q" placeholder="Ticket id, slug, branch or words…" value={q} onChange={(e) => setQ(e.target.value)} className="w-80" />
      <Button type="submit" variant="primary" disabled={blank}>
        <Search aria-hidden className="size-4" /> Load context
      </Button>
    </form>
  );
}
