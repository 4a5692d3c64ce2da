"use client";

import { useEffect, useRef } from "react";
import { CheckCircle2 } from "lucide-react";
import type { ProposalOutcome } from "@/lib/memory/next-step";

/**
 * What a decision or an apply just did and what comes next. The button the person pressed is
 * gone once the proposal moves on, so focus (and the view) comes here instead of being lost.
 */
export function OutcomeNotice({ outcome, eventHref }: { outcome: ProposalOutcome; eventHref: string | null }) {
  const ref = useRef<HTMLDivElement>(null);
  const key = `${outcome.proposalId}:${outcome.done}`;
  useEffect(() => {
    ref.current?.focus({ preventScroll: true });
    ref.current?.scrollIntoView({ block: "nearest" });
  }, [key]);
  return (
    <div
      ref={ref}
      tabIndex={-1}
      role="status"
      aria-label="What happened"
      data-outcome={outcome.proposalId}
      className="flex gap-2 border-b border-border bg-ok/10 px-4 py-3 text-sm outline-none focus-visible:ring-2 focus-visible:ring-accent"
    >
      <CheckCircle2 aria-hidden className="mt-0.5 size-4 shrink-0 text-ok" />
      <div className="space-y-0.5">
        <p className="font-medium">{outcome.done}</p>
        {outcome.next ? (
          <p className="text-fg-muted">
            {outcome.next}
            {eventHref ? (
              <>
                {" "}
                <a href={eventHref} className="text-accent underline">
                  Show {outcome.eventId}
                </a>
              </>
            ) : null}
          </p>
        ) : null}
      </div>
    </div>
  );
}
