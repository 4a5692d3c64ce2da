"use client";

import * as Select from "@radix-ui/react-select";
import { Check, ChevronDown } from "lucide-react";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useEffect, useState, useTransition } from "react";
import { Input } from "@/components/ui/input";
import { SOURCE_KINDS, SOURCE_LABEL } from "@/lib/inventory/types";

const ALL = "__all";

function FilterSelect({ id, label, value, options, onChange }: { id: string; label: string; value: string; options: { value: string; label: string }[]; onChange: (v: string) => void }) {
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-xs font-medium text-fg-muted">
        {label}
      </label>
      <Select.Root value={value || ALL} onValueChange={(v) => onChange(v === ALL ? "" : v)}>
        <Select.Trigger id={id} aria-label={label} className="inline-flex h-9 min-w-40 items-center justify-between gap-2 rounded-md border border-border bg-surface px-3 text-sm">
          <Select.Value />
          <Select.Icon>
            <ChevronDown aria-hidden className="size-4 text-fg-muted" />
          </Select.Icon>
        </Select.Trigger>
        <Select.Portal>
          <Select.Content position="popper" sideOffset={4} className="z-50 min-w-40 overflow-hidden rounded-md border border-border bg-surface shadow-lg">
            <Select.Viewport className="p-1">
              {[{ value: ALL, label: "All" }, ...options].map((o) => (
                <Select.Item key={o.value} value={o.value} className="relative flex cursor-default select-none items-center rounded px-2 py-1.5 pl-7 text-sm outline-none data-[highlighted]:bg-muted">
                  <Select.ItemIndicator className="absolute left-2">
                    <Check aria-hidden className="size-3.5" />
                  </Select.ItemIndicator>
                  <Select.ItemText>{o.label}</Select.ItemText>
                </Select.Item>
              ))}
            </Select.Viewport>
          </Select.Content>
        </Select.Portal>
      </Select.Root>
    </div>
  );
}

/** Filters live in the URL, so every filtered view can be shared and reloaded. */
export function InventoryFilters({ statuses }: { statuses: string[] }) {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const [text, setText] = useState(params.get("q") ?? "");
  const [, startTransition] = useTransition();

  const set = (key: string, value: string) => {
    const next = new URLSearchParams(params.toString());
    if (value) next.set(key, value);
    else next.delete(key);
    next.delete("page");
    const qs = next.toString();
    startTransition(() => router.replace(qs ? `${pathname}?${qs}` : pathname, { scroll: false }));
  };

  useEffect(() => {
    if ((params.get("q") ?? "") === text) return;
    const t = setTimeout(() => set("q", text.trim()), 250);
    return () => clearTimeout(t);
    // Only the text drives this debounce.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [text]);

  return (
    <div className="flex flex-wrap items-end gap-3" role="search" aria-label="Filter topics">
      <div className="w-64">
        <label htmlFor="topic-filter-text" className="mb-1 block text-xs font-medium text-fg-muted">
          Slug or title
        </label>
        <Input id="topic-filter-text" type="search" data-nav-search placeholder="Filter…" value={text} onChange={(e) => setText(e.target.value)} />
      </div>
      <FilterSelect id="topic-filter-source" label="Source" value={params.get("source") ?? ""} options={SOURCE_KINDS.map((s) => ({ value: s, label: SOURCE_LABEL[s] }))} onChange={(v) => set("source", v)} />
      <FilterSelect id="topic-filter-status" label="Status" value={params.get("status") ?? ""} options={statuses.map((s) => ({ value: s, label: s }))} onChange={(v) => set("status", v)} />
    </div>
  );
}
