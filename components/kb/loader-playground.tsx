"use client";

import { DataTable } from "@/components/ui/data-table";
import { useState } from "react";
import { Play } from "lucide-react";
import { CopyButton, DownloadButton } from "@/components/context/copy-button";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import type { z } from "zod";
import { callApi, errorMessage } from "@/lib/api/client";
import { kbRoutes, type loaderResponseSchema } from "@/lib/moc/schemas";
import { plural } from "@/lib/core/plural";

type LoaderResponse = z.infer<typeof loaderResponseSchema>;

const LABEL_TONE: Record<string, BadgeTone> = { relevant: "ok", maybe: "warn", irrelevant: "neutral" };

/** Type a prompt, see the pack the context-loader would return and every step of its walk. */
export function LoaderPlayground({ projectId }: { projectId: string }) {
  const [prompt, setPrompt] = useState("");
  const [res, setRes] = useState<LoaderResponse | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function run() {
    setBusy(true);
    setError(null);
    try {
      setRes(await callApi(kbRoutes.loader, { params: { id: projectId }, body: { prompt } }));
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  }

  const w = res?.walk;
  return (
    <div className="space-y-4">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void run();
        }}
        className="space-y-2"
      >
        <label htmlFor="loader-prompt" className="block text-xs font-medium text-fg-muted">
          Prompt (verbatim, as the main agent would pass it)
        </label>
        <textarea
          id="loader-prompt"
          value={prompt}
          onChange={(e) => setPrompt(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter" && (e.metaKey || e.ctrlKey)) {
              e.preventDefault();
              void run();
            }
          }}
          rows={3}
          className="w-full rounded-md border border-border bg-surface p-3 text-sm focus-visible:outline-2 focus-visible:outline-accent"
          placeholder="How do we replay a payment webhook the provider never delivered?"
        />
        <div className="flex items-center gap-3">
          <Button type="submit" variant="primary" disabled={busy}>
            <Play aria-hidden className="size-4" /> {busy ? "Walking…" : "Build pack"}
          </Button>
          <span className="text-xs text-fg-muted">Ctrl+Enter runs it. Deterministic: no model, no network.</span>
        </div>
      </form>
      {error ? (
        <p role="alert" className="text-sm text-danger">
          {error}
        </p>
      ) : null}
      {res && w ? (
        <div className="space-y-4" data-testid="loader-result">
          <dl className="flex flex-wrap gap-x-6 gap-y-1 text-sm">
            <div>
              <dt className="inline text-fg-muted">Pack </dt>
              <dd className="inline font-medium">{res.packTokens} / 3000 tokens</dd>
            </div>
            <div>
              <dt className="inline text-fg-muted">Read </dt>
              <dd className="inline font-medium">
                {plural(w.input.filesRead, "file")}, {plural(w.input.bytesRead, "byte")}, {plural(w.input.tokensRead, "token")}
              </dd>
            </div>
            <div>
              <dt className="inline text-fg-muted">Tokenizer </dt>
              <dd className="inline">{res.tokenizer}</dd>
            </div>
            <div>
              <dt className="inline text-fg-muted">Judge </dt>
              <dd className="inline">{w.judge}</dd>
            </div>
          </dl>
          {w.trivial ? <p className="text-sm">Trivial prompt: {w.trivial.reason}. No file was read.</p> : null}
          {w.error ? <p className="text-sm text-danger">docs/_index.md is missing: kb_not_initialized.</p> : null}
          {w.sections.length ? (
            <div>
              <h3 className="mb-1 text-sm font-semibold">Sections scored</h3>
              <DataTable
                label="Sections scored"
                primary={false}
                columns={[
                  { id: "section", header: "Section", cellClassName: "font-mono text-xs" },
                  { id: "depth", header: "Depth" },
                  { id: "label", header: "Label" },
                  { id: "why", header: "Why", cellClassName: "text-xs text-fg-muted" },
                ]}
                rows={w.sections.map((s) => ({
                  key: s.path,
                  cells: {
                    section: s.path,
                    depth: s.depth,
                    label: (
                      <>
                        <Badge tone={LABEL_TONE[s.label]}>{s.label}</Badge> {s.walked ? <Badge>walked</Badge> : null}
                      </>
                    ),
                    why: s.why,
                  },
                }))}
              />
            </div>
          ) : null}
          {w.files.length ? (
            <div>
              <h3 className="mb-1 text-sm font-semibold">Files</h3>
              <ul className="space-y-2">
                {w.files.map((f) => (
                  <li key={f.path} className="rounded-md border border-border">
                    <p className="flex flex-wrap items-center gap-2 px-3 py-1.5 text-sm">
                      <span className="font-mono text-xs">{f.path}</span>
                      <Badge tone={f.status === "read" ? "ok" : "warn"}>{f.status === "read" ? "read" : "noted, not read"}</Badge>
                      <span className="text-xs text-fg-muted">{f.reason}</span>
                    </p>
                    {f.excerpts.map((e) => (
                      <pre key={e.startLine} className="overflow-x-auto border-t border-border bg-muted/50 p-2 font-mono text-xs">
                        {e.lines.map((l, i) => `${String(e.startLine + i).padStart(4)}  ${l}`).join("\n")}
                      </pre>
                    ))}
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          {w.notes.length ? (
            <div>
              <h3 className="mb-1 text-sm font-semibold">Notes</h3>
              <ul className="list-disc space-y-0.5 pl-5 text-sm">
                {w.notes.map((n) => (
                  <li key={n}>{n}</li>
                ))}
              </ul>
            </div>
          ) : null}
          <div className="rounded-md border border-border">
            <div className="flex items-center justify-between border-b border-border px-3 py-1.5">
              <h3 className="text-sm font-semibold">The pack</h3>
              <div className="flex gap-2">
                <CopyButton text={res.pack} label="Copy pack" />
                <DownloadButton text={res.pack} filename="context-pack.md" />
              </div>
            </div>
            <pre className="overflow-x-auto p-3 font-mono text-xs" data-testid="loader-pack">
              {res.pack}
            </pre>
          </div>
        </div>
      ) : null}
    </div>
  );
}
