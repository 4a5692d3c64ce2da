"use client";

import * as Dialog from "@radix-ui/react-dialog";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Trash2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import { callApi, errorMessage } from "@/lib/api/client";
import { projectRoutes } from "@/lib/projects/schemas";

/** Removes the project's indexed data after a confirmation; the repository is untouched. */
export function RemoveProjectButton({ projectId, name }: { projectId: string; name: string }) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function remove() {
    setBusy(true);
    try {
      await callApi(projectRoutes.remove, { params: { id: projectId } });
    } catch (e) {
      setError(errorMessage(e));
      setBusy(false);
      return;
    }
    router.push("/");
    router.refresh();
  }

  return (
    <Dialog.Root>
      <Dialog.Trigger asChild>
        <Button variant="ghost">
          <Trash2 aria-hidden className="size-4" /> Remove
        </Button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 bg-black/40" />
        <Dialog.Content className="fixed left-1/2 top-1/2 w-[28rem] max-w-[90vw] -translate-x-1/2 -translate-y-1/2 rounded-lg border border-border bg-surface p-5 shadow-xl">
          <Dialog.Title className="text-base font-semibold">Remove {name}?</Dialog.Title>
          <Dialog.Description className="mt-2 text-sm text-fg-muted">
            This deletes what the Workbench indexed for this project. The repository on disk is not touched, and you can add it again at any time.
          </Dialog.Description>
          {error ? (
            <p role="alert" className="mt-3 text-sm text-danger">
              {error}
            </p>
          ) : null}
          <div className="mt-5 flex justify-end gap-2">
            <Dialog.Close asChild>
              <Button>Cancel</Button>
            </Dialog.Close>
            <Button variant="danger" onClick={remove} disabled={busy}>
              {busy ? "Removing…" : "Remove project"}
            </Button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
