"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Input, Label } from "@/components/ui/input";

/** Registers a folder and opens its page, where the indexing job shows its progress. */
export function AddProjectForm() {
  const router = useRouter();
  const [path, setPath] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const res = await fetch("/api/v1/projects", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ path }),
      });
      const body = (await res.json()) as { project?: { id: string }; job?: { id: string }; error?: { message: string } };
      if (!res.ok || !body.project) throw new Error(body.error?.message ?? `The server answered ${res.status}.`);
      router.push(`/projects/${body.project.id}?job=${body.job?.id ?? ""}`);
      router.refresh();
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} className="flex flex-col gap-3 sm:flex-row sm:items-end" aria-describedby={error ? "add-project-error" : undefined}>
      <div className="flex-1">
        <Label htmlFor="project-path">Project folder on this machine</Label>
        <Input
          id="project-path"
          name="path"
          required
          placeholder="/home/me/code/my-service"
          value={path}
          onChange={(e) => setPath(e.target.value)}
          autoComplete="off"
          spellCheck={false}
        />
      </div>
      <Button type="submit" variant="primary" disabled={busy || path.trim() === ""}>
        {busy ? "Adding…" : "Add and index"}
      </Button>
      {error ? (
        <p id="add-project-error" role="alert" className="text-sm text-danger sm:basis-full">
          {error}
        </p>
      ) : null}
    </form>
  );
}
