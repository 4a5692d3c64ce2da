"use client";

import { EmptyState } from "@/components/ui/empty-state";
import { Button } from "@/components/ui/button";

/** Server errors reach the page as a digest only; the details stay in the server log. */
export default function ErrorPage({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div className="mx-auto max-w-xl pt-16">
      <EmptyState title="Something went wrong" action={<Button onClick={reset}>Try again</Button>}>
        The page could not be shown{error.digest ? ` (reference ${error.digest})` : ""}. The server log has the details.
      </EmptyState>
    </div>
  );
}
