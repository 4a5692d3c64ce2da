import { Search } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Input, Label } from "@/components/ui/input";

/**
 * The query and date range. A plain GET form: the result is a URL that reproduces it, and it
 * works before any script has loaded. Facet choices ride along as hidden fields.
 */
export function SearchForm({ q, from, to, keep }: { q: string; from?: string; to?: string; keep: Record<string, string> }) {
  return (
    <form action="/search" method="get" role="search" className="flex flex-wrap items-end gap-3">
      {Object.entries(keep).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
      <div className="min-w-64 flex-1">
        <Label htmlFor="search-q">Search everything indexed</Label>
        <div className="relative">
          <Search aria-hidden className="pointer-events-none absolute left-2.5 top-2.5 size-4 text-fg-muted" />
          <Input id="search-q" name="q" type="search" defaultValue={q} placeholder='Words, "a phrase", or a prefix*' className="pl-8" data-nav-search autoFocus={!q} maxLength={300} />
        </div>
      </div>
      <div>
        <Label htmlFor="search-from">From</Label>
        <Input id="search-from" name="from" type="date" defaultValue={from} className="w-40" />
      </div>
      <div>
        <Label htmlFor="search-to">To</Label>
        <Input id="search-to" name="to" type="date" defaultValue={to} className="w-40" />
      </div>
      <Button type="submit" variant="primary">
        Search
      </Button>
    </form>
  );
}
