"use client";

import { useRouter } from "next/navigation";
import { useEffect, useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { compareHref } from "./href";

export interface PickerRun {
  id: string;
  relPath: string;
  iterations: number;
}

/**
 * Baseline and mode. A GET form, so it works before hydration; once hydrated, a change
 * navigates at once. Changing the baseline starts again at the first list and page.
 */
export function BaselinePicker({ projectId, runId, base, changesOnly, runs, iterations }: { projectId: string; runId: string; base: string | null; changesOnly: boolean; runs: PickerRun[]; iterations: number[] }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [value, setValue] = useState(base ?? "");
  const [changes, setChanges] = useState(changesOnly);
  // Until hydration the form submits as a plain GET; tests wait for the instant navigation.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const go = (next: { base: string; changes: boolean }) => {
    if (!next.base) return;
    startTransition(() => router.push(compareHref(projectId, runId, next)));
  };
  const last = iterations[iterations.length - 1];
  return (
    <form method="get" action={compareHref(projectId, runId, {})} className="flex flex-wrap items-end gap-3" aria-busy={pending} data-testid="baseline-picker" data-hydrated={hydrated ? "true" : undefined}>
      <div>
        <label htmlFor="compare-base" className="mb-1 block text-xs font-medium text-fg-muted">
          Baseline
        </label>
        <select
          id="compare-base"
          name="base"
          value={value}
          onChange={(e) => {
            setValue(e.target.value);
            go({ base: e.target.value, changes });
          }}
          className="h-9 max-w-md rounded-md border border-border bg-surface px-2 text-sm focus-visible:outline-2 focus-visible:outline-accent"
        >
          <option value="" disabled>
            Choose a run or an iteration…
          </option>
          {iterations.length ? (
            <optgroup label="This run, as it stood after iteration">
              {iterations.map((n) => (
                <option key={n} value={`iter:${n}`}>
                  Iteration {n}
                  {n === last ? " (latest)" : ""}
                </option>
              ))}
            </optgroup>
          ) : null}
          {runs.length ? (
            <optgroup label="Other deep-context runs of this project">
              {runs.map((r) => (
                <option key={r.id} value={`run:${r.id}`}>
                  {r.relPath} ({r.iterations} iterations)
                </option>
              ))}
            </optgroup>
          ) : null}
        </select>
      </div>
      <label className="flex h-9 items-center gap-2 text-sm">
        <input
          type="checkbox"
          name="changes"
          value="1"
          checked={changes}
          onChange={(e) => {
            setChanges(e.target.checked);
            go({ base: value, changes: e.target.checked });
          }}
          className="size-4 rounded border-border accent-[var(--color-accent)] focus-visible:outline-2 focus-visible:outline-accent"
        />
        Changes only
      </label>
      <Button type="submit" size="sm" variant="secondary" disabled={pending}>
        {pending ? "Comparing…" : "Compare"}
      </Button>
    </form>
  );
}
