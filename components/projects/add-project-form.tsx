"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Input, Label } from "@/components/ui/input";
import { callApi, errorMessage } from "@/lib/api/client";
import { projectRoutes } from "@/lib/projects/schemas";

type Source = "folder" | "git";

/** Registers a folder, or clones a git remote, and opens its page, where the indexing job shows its progress. */
export function AddProjectForm() {
  const router = useRouter();
  const [source, setSource] = useState<Source>("folder");
  const [path, setPath] = useState("");
  const [url, setUrl] = useState("");
  const [branch, setBranch] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const value = source === "folder" ? path : url;

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const input = source === "folder" ? { path } : { url: url.trim(), ...(branch.trim() ? { branch: branch.trim() } : {}) };
      const { project, job } = await callApi(projectRoutes.add, { body: input });
      router.push(`/projects/${project.id}?job=${job.id}`);
      router.refresh();
    } catch (err) {
      setError(errorMessage(err));
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} className="flex flex-col gap-3" aria-describedby={error ? "add-project-error" : undefined}>
      <div role="tablist" aria-label="Project source" className="inline-flex self-start rounded-md border border-border p-0.5 text-sm">
        {(["folder", "git"] as const).map((s) => (
          <button
            key={s}
            role="tab"
            type="button"
            aria-selected={source === s}
            onClick={() => {
              setSource(s);
              setError(null);
            }}
            className={`rounded px-3 py-1 focus-visible:outline-2 focus-visible:outline-accent ${source === s ? "bg-accent text-accent-fg" : "text-fg-muted hover:bg-muted"}`}
          >
            {s === "folder" ? "Folder" : "Git URL"}
          </button>
        ))}
      </div>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        {source === "folder" ? (
          <div className="flex-1">
            <Label htmlFor="project-path">Project folder on this machine</Label>
            <Input id="project-path" name="path" required placeholder="/home/me/code/my-service" value={path} onChange={(e) => setPath(e.target.value)} autoComplete="off" spellCheck={false} />
          </div>
        ) : (
          <>
            <div className="flex-1">
              <Label htmlFor="project-url">Git URL (cloned into the Workbench's data folder)</Label>
              <Input id="project-url" name="url" required placeholder="https://github.com/acme/orders.git" value={url} onChange={(e) => setUrl(e.target.value)} autoComplete="off" spellCheck={false} />
            </div>
            <div className="sm:w-44">
              <Label htmlFor="project-branch">Branch (optional)</Label>
              <Input id="project-branch" name="branch" placeholder="default branch" value={branch} onChange={(e) => setBranch(e.target.value)} autoComplete="off" spellCheck={false} />
            </div>
          </>
        )}
        <Button type="submit" variant="primary" disabled={busy || value.trim() === ""}>
          {busy ? (source === "git" ? "Cloning…" : "Adding…") : source === "git" ? "Clone and index" : "Add and index"}
        </Button>
      </div>
      {error ? (
        <p id="add-project-error" role="alert" className="text-sm text-danger">
          {error}
        </p>
      ) : null}
    </form>
  );
}
