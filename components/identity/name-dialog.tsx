"use client";

import * as Dialog from "@radix-ui/react-dialog";
import { useState, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import type { Identity } from "@/lib/collab/identity";
import { useIdentitySource } from "./identity-source";

interface Pending {
  /** What the person asked to do, as its button says it ("Request review"). */
  action: string;
  run: (identity: Identity) => void;
}

/**
 * Runs an action that records who did it, asking for a display name first when none is chosen
 * yet: the dialog names the action, and the action carries on under the name once it is saved.
 * With a signed-in account (team mode) the name is the account's, so it never asks.
 */
export function useNamedAction(identity: Identity | null): { withName: (action: string, run: (identity: Identity) => void) => void; dialog: ReactNode } {
  const source = useIdentitySource();
  const [pending, setPending] = useState<Pending | null>(null);

  function withName(action: string, run: (identity: Identity) => void) {
    // Another tab may have chosen a name since this one rendered.
    const who = identity ?? source.current();
    if (who) run(who);
    else if (source.choose) setPending({ action, run });
  }

  const dialog = (
    <NameDialog
      pending={pending}
      choose={(name) => source.choose!(name)}
      onCancel={() => setPending(null)}
      onChosen={(who) => {
        const p = pending;
        setPending(null);
        p?.run(who);
      }}
    />
  );
  return { withName, dialog };
}

function NameDialog({ pending, choose, onCancel, onChosen }: { pending: Pending | null; choose: (name: string) => Identity; onCancel: () => void; onChosen: (identity: Identity) => void }) {
  const [name, setName] = useState("");
  const [error, setError] = useState<string | null>(null);
  return (
    <Dialog.Root
      open={pending !== null}
      onOpenChange={(open) => {
        if (!open) {
          setError(null);
          onCancel();
        }
      }}
    >
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-black/40" />
        <Dialog.Content className="fixed left-1/2 top-1/2 z-50 w-[28rem] max-w-[90vw] -translate-x-1/2 -translate-y-1/2 rounded-lg border border-border bg-surface p-5 shadow-xl">
          <Dialog.Title className="text-base font-semibold">Your name, before you {pending?.action.toLowerCase() ?? "go on"}</Dialog.Title>
          <Dialog.Description className="mt-2 text-sm text-fg-muted">
            Revisions, reviews and comments are recorded under a display name, and others editing this packet see it. It is kept in this browser; nothing else is asked.
          </Dialog.Description>
          <form
            className="mt-4 space-y-3"
            onSubmit={(e) => {
              e.preventDefault();
              try {
                const who = choose(name);
                setError(null);
                onChosen(who);
              } catch (err) {
                setError(err instanceof Error ? err.message : String(err));
              }
            }}
          >
            <label className="block text-sm">
              Display name
              <input
                className="mt-1 block h-9 w-full rounded-md border border-border bg-surface px-2 text-sm"
                value={name}
                onChange={(e) => setName(e.target.value)}
                maxLength={40}
                autoComplete="name"
                aria-invalid={error !== null}
                aria-describedby={error ? "display-name-error" : undefined}
              />
            </label>
            {error ? (
              <p id="display-name-error" role="alert" className="text-sm text-danger">
                {error}
              </p>
            ) : null}
            <div className="flex justify-end gap-2">
              <Dialog.Close asChild>
                <Button type="button">Cancel</Button>
              </Dialog.Close>
              <Button type="submit" variant="primary">
                Save name and {pending?.action.toLowerCase() ?? "go on"}
              </Button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
