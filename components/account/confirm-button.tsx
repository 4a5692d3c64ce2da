"use client";

import * as Dialog from "@radix-ui/react-dialog";
import { useState, type ReactNode } from "react";
import { Button, type ButtonProps } from "@/components/ui/button";
import { ApiError, callApi, type CallInput } from "@/lib/api/client";
import type { AnyRouteContract } from "@/lib/core/contract";

/**
 * A button that asks first. `onConfirm` resolves to an error message to show in the dialog, or
 * null when done (the dialog then closes).
 */
export function ConfirmButton({
  children,
  title,
  description,
  confirmLabel,
  busyLabel,
  onConfirm,
  variant = "ghost",
  size = "sm",
  "aria-label": ariaLabel,
}: {
  children: ReactNode;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  busyLabel: string;
  onConfirm: () => Promise<string | null>;
  variant?: ButtonProps["variant"];
  size?: ButtonProps["size"];
  "aria-label"?: string;
}) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function confirm() {
    setBusy(true);
    setError(null);
    const message = await onConfirm().catch((e: unknown) => (e instanceof Error ? e.message : String(e)));
    setBusy(false);
    if (message) setError(message);
    else setOpen(false);
  }

  return (
    <Dialog.Root
      open={open}
      onOpenChange={(o) => {
        if (busy) return;
        setOpen(o);
        if (!o) setError(null);
      }}
    >
      <Dialog.Trigger asChild>
        <Button variant={variant} size={size} aria-label={ariaLabel}>
          {children}
        </Button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-black/40" />
        <Dialog.Content className="fixed left-1/2 top-1/2 z-50 w-[28rem] max-w-[90vw] -translate-x-1/2 -translate-y-1/2 rounded-lg border border-border bg-surface p-5 shadow-xl">
          <Dialog.Title className="text-base font-semibold">{title}</Dialog.Title>
          <Dialog.Description className="mt-2 text-sm text-fg-muted">{description}</Dialog.Description>
          <div role="alert" aria-live="assertive" className="mt-3 text-sm text-danger empty:hidden">
            {error}
          </div>
          <div className="mt-5 flex justify-end gap-2">
            <Dialog.Close asChild>
              <Button disabled={busy}>Cancel</Button>
            </Dialog.Close>
            <Button variant="danger" onClick={confirm} disabled={busy} aria-busy={busy}>
              {busy ? busyLabel : confirmLabel}
            </Button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** Calls one of our APIs; resolves to the error message, or null on success. */
export async function send<C extends AnyRouteContract>(contract: C, input: CallInput<C>): Promise<string | null> {
  try {
    await callApi(contract, input);
    return null;
  } catch (e) {
    if (e instanceof ApiError) return e.message;
    return e instanceof Error ? `The request failed: ${e.message}` : "The request failed.";
  }
}
