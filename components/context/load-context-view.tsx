import Link from "next/link";
import { GitBranch, History, Info } from "lucide-react";
import { Badge, statusTone } from "@/components/ui/badge";
import { Card, CardHeader } from "@/components/ui/card";
import { Markdown } from "@/components/ui/markdown";
import { Time } from "@/components/ui/time";
import type { TopicSourceDto } from "@/lib/inventory/types";
import { workSummary } from "@/lib/inventory/format";
import type { LoadContextResult } from "@/lib/inventory/load-context";
import { CopyButton, DownloadButton } from "./copy-button";
import { UntrustedBlock } from "./untrusted-block";
import { deliberateFaultsAt, type SampleFaultPath } from "@/lib/projects/sample-fault-match";
import { DeliberateFaultLabel } from "@/components/projects/deliberate-fault";
import { plural } from "@/lib/core/plural";

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="flex gap-2 text-sm">
      <dt className="w-36 shrink-0 text-fg-muted">{label}</dt>
      <dd className="min-w-0">{children}</dd>
    </div>
  );
}

function BulletList({ items }: { items: string[] }) {
  return (
    <ul className="list-disc space-y-0.5 pl-4">
      {items.map((k) => (
        <li key={k}>{k}</li>
      ))}
    </ul>
  );
}

function FileList({ files }: { files: string[] }) {
  return (
    <ul className="space-y-0.5">
      {files.map((f) => (
        <li key={f} className="font-mono text-xs">
          {f}
        </li>
      ))}
    </ul>
  );
}

function SectionCard({ title, slug, query, projectId, children }: { title: string; slug: string; query: string; projectId: string; children: React.ReactNode }) {
  return (
    <Card>
      <CardHeader
        title={
          <>
            {title}
            {slug !== query ? (
              <>
                {" · "}
                <Link className="font-mono text-accent hover:underline" href={`/projects/${projectId}/topics/${encodeURIComponent(slug)}`}>
                  {slug}
                </Link>
              </>
            ) : null}
          </>
        }
      />
      <div className="space-y-3 p-4">{children}</div>
    </Card>
  );
}

function WorkCard({ r, query, projectId, deliberate }: { r: TopicSourceDto; query: string; projectId: string; deliberate?: readonly SampleFaultPath[] }) {
  if (r.details.kind !== "work") return null;
  const d = r.details;
  return (
    <SectionCard title="Work State" slug={r.slug} query={query} projectId={projectId}>
      <dl className="space-y-1">
        <Field label="Status">
          {r.phase ?? "unknown"} <Badge tone={statusTone(r.status)}>{r.status ?? "unknown"}</Badge>
        </Field>
        <Field label="Last updated">
          <Time iso={r.updatedAt} />
        </Field>
        {d.featureBranch ? (
          <Field label="Branch">
            <span className="font-mono text-xs">
              {d.featureBranch} → {d.baseBranch ?? "unknown"}
            </span>
          </Field>
        ) : null}
        {d.chunksTotal ? (
          <Field label="Chunks">
            <span className="inline-flex items-center gap-2">
              <span className="h-1.5 w-24 overflow-hidden rounded bg-muted" aria-hidden>
                <span className="block h-full bg-ok" style={{ width: `${Math.round(((d.chunksDone ?? 0) / d.chunksTotal) * 100)}%` }} />
              </span>
              {d.chunksDone ?? 0}/{d.chunksTotal} completed
            </span>
          </Field>
        ) : null}
        <Field label="Summary">{workSummary(r)}</Field>
        {d.keyFiles.length ? (
          <Field label="Key files">
            <FileList files={d.keyFiles} />
          </Field>
        ) : null}
      </dl>
      {d.agentOutputs.length ? (
        <div>
          <h3 className="mb-2 text-xs font-semibold uppercase tracking-wide text-fg-muted">Agent outputs</h3>
          <div className="space-y-3">
            {d.agentOutputs.map((o) => (
              <details key={o.relPath} open={o.untrusted || o.isSummary} className="rounded-md border border-border">
                <summary className="cursor-pointer px-3 py-1.5 font-mono text-xs">
                  {o.relPath.split("/").slice(-1)[0]} {o.isSummary ? <Badge>summary</Badge> : null} {o.untrusted ? <Badge tone="warn">untrusted</Badge> : null}
                  {o.flagged.length ? <Badge tone="danger">{o.flagged.length} flagged</Badge> : null}
                </summary>
                <div className="border-t border-border p-3">
                  <UntrustedBlock text={o.text} untrusted={o.untrusted} flagged={o.flagged} deliberate={deliberate} />
                </div>
              </details>
            ))}
          </div>
        </div>
      ) : null}
      {d.updates.length ? (
        <div>
          <h3 className="mb-2 flex items-center gap-1.5 text-xs font-semibold uppercase tracking-wide text-fg-muted">
            <History aria-hidden className="size-3.5" /> Session updates
          </h3>
          <ol className="space-y-1.5 border-l border-border pl-3">
            {d.updates.map((u, i) => (
              <li key={i} className="text-sm">
                <span className="mr-2 text-xs text-fg-muted">
                  <Time iso={u.timestamp} />
                </span>
                {u.auto ? <Badge className="mr-1">[auto]</Badge> : null}
                {u.note.replace(/^\[auto\]\s*/, "")}
              </li>
            ))}
          </ol>
        </div>
      ) : null}
    </SectionCard>
  );
}

function BrainstormCard({ r, title, query, projectId }: { r: TopicSourceDto; title: string; query: string; projectId: string }) {
  if (r.details.kind !== "brainstorm") return null;
  const d = r.details;
  return (
    <SectionCard title={title} slug={r.slug} query={query} projectId={projectId}>
      <dl className="space-y-1">
        {r.legacy ? (
          <Field label="Location">
            <span className="font-mono text-xs">{r.relPath}</span> <Badge tone="warn">legacy: in the work folder</Badge>
          </Field>
        ) : null}
        {r.status ? (
          <Field label="Status">
            <Badge tone={statusTone(r.status)}>{r.status}</Badge> {d.phasesTotal ? `${d.phasesDone}/${plural(d.phasesTotal, "phase")} completed` : null}
          </Field>
        ) : null}
        <Field label="Selected approach">{d.selectedApproach ?? "none yet"}</Field>
        {d.alternativesCount !== null ? <Field label="Alternatives">{d.alternativesCount}</Field> : null}
        {d.keyDecisions.length ? (
          <Field label="Key decisions">
            <BulletList items={d.keyDecisions} />
          </Field>
        ) : null}
        {d.keyFiles.length ? (
          <Field label="Key files">
            <FileList files={d.keyFiles} />
          </Field>
        ) : null}
      </dl>
      {!d.hasState ? <p className="text-xs text-fg-muted">No state.json: summarised from the session&apos;s markdown files.</p> : null}
      {d.excerpts.map((e) => (
        <details key={e.relPath} className="rounded-md border border-border">
          <summary className="cursor-pointer px-3 py-1.5 font-mono text-xs">{e.relPath}</summary>
          <div className="border-t border-border p-3">
            <Markdown text={e.text} />
          </div>
        </details>
      ))}
    </SectionCard>
  );
}

function ProposalCard({ r, query, projectId }: { r: TopicSourceDto; query: string; projectId: string }) {
  if (r.details.kind !== "proposal") return null;
  const d = r.details;
  return (
    <SectionCard title="Proposal" slug={r.slug} query={query} projectId={projectId}>
      <dl className="space-y-1">
        <Field label="Status">
          <Badge tone={statusTone(r.status)}>{r.status ?? "unknown"}</Badge>
        </Field>
        {d.iterations !== null ? <Field label="Iterations">{d.iterations}</Field> : null}
        {d.keyPoints.length ? (
          <Field label="Key points">
            <BulletList items={d.keyPoints} />
          </Field>
        ) : null}
        <Field label="Key files">
          <FileList files={d.keyFiles} />
        </Field>
      </dl>
    </SectionCard>
  );
}

function RefactoringCard({ r, query, projectId }: { r: TopicSourceDto; query: string; projectId: string }) {
  if (r.details.kind !== "refactoring") return null;
  const d = r.details;
  return (
    <SectionCard title="Refactoring Session" slug={r.slug} query={query} projectId={projectId}>
      <dl className="space-y-1">
        <Field label="Scope">{d.scope ?? r.title ?? "unknown"}</Field>
        <Field label="Progress">{d.progress ?? r.status ?? "unknown"}</Field>
        <Field label={`Files affected${d.filesAffectedCount ? ` (${d.filesAffectedCount})` : ""}`}>
          <FileList files={d.filesAffected.length ? d.filesAffected : d.keyFiles} />
        </Field>
      </dl>
    </SectionCard>
  );
}

/** The markdown's <pre>: the copy and download buttons read it there rather than carry it twice more. */
const MARKDOWN_ID = "load-context-markdown";

/** The load-context result for people: the same sections as the markdown, easier to scan. */
export function LoadContextView({
  result,
  markdown,
  projectId,
  deliberate,
}: {
  result: LoadContextResult;
  markdown: string;
  projectId: string;
  /** The bundled sample's deliberate faults, labelled where they show (sample-faults.ts); none for other projects. */
  deliberate?: readonly SampleFaultPath[];
}) {
  const q = result.query;
  const filename = `load-context-${q.replace(/[^A-Za-z0-9._-]+/g, "_").slice(0, 60) || "query"}.md`;
  // With a result the markdown is on the page (the <pre> below); "nothing found" shows no <pre>.
  const tools = (onPage: boolean) => {
    const src = onPage ? { sourceId: MARKDOWN_ID } : { text: markdown };
    return (
      <div className="flex gap-2">
        <CopyButton {...src} label="Copy markdown" />
        <DownloadButton {...src} filename={filename} />
      </div>
    );
  };

  if (result.mode === "none") {
    const s = result.searched;
    return (
      <div className="space-y-4" data-testid="load-context-none">
        <Card>
          <CardHeader title={`No context found for: "${q}"`} description="Searched every source; nothing matched." actions={tools(false)} />
          <dl className="space-y-1 p-4">
            <Field label="Work state">{s.work} — not found</Field>
            <Field label="Brainstorms">{s.brainstorms} — not found</Field>
            <Field label="Proposals">{s.proposals} — not found</Field>
            <Field label="Refactoring">{s.refactoring} — not found</Field>
            <Field label="Requirements">{s.requirements}</Field>
            <Field label="Product KB">{s.product}</Field>
            <Field label="Git history">No matching branches or commits</Field>
          </dl>
          <div className="border-t border-border p-4 text-sm text-fg-muted">
            Try a broader query, check the spelling, or{" "}
            <Link className="text-accent underline" href={`/projects/${projectId}/topics`}>
              list available context
            </Link>
            .
          </div>
        </Card>
        {!result.pathSafe ? <PathNote /> : null}
      </div>
    );
  }

  return (
    <div className="space-y-4" data-testid="load-context-result">
      <div role="note" className="flex gap-2 rounded-lg border border-accent/40 bg-accent/5 p-3 text-sm">
        <Info aria-hidden className="mt-0.5 size-4 shrink-0 text-accent" />
        <p>
          <strong>HISTORICAL REFERENCE</strong> — This state was recorded in a prior session. Verify all file paths, statuses, and decisions against the current working tree before acting. Do NOT re-run past commands or
          re-apply past edits.
        </p>
      </div>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-fg-muted">
          {result.mode === "exact" ? "Exact match (manifests, folders, git branches)." : "No exact match: partial matches from folder names, file contents, knowledge bases and git log."}
        </p>
        {tools(true)}
      </div>
      {!result.pathSafe ? <PathNote /> : null}
      {result.flagged.length ? (
        <div role="alert" className="rounded-lg border border-danger/50 bg-danger/5 p-3 text-sm">
          <p className="font-medium text-danger">{plural(result.flagged.length, "embedded directive")} flagged in untrusted content — shown as data, never followed.</p>
          <ul className="mt-1 space-y-0.5 font-mono text-xs">
            {result.flagged.map((f) => (
              <li key={`${f.relPath}:${f.line}`}>
                {f.relPath}:{f.line} [{f.rule}] {f.text}
                <DeliberateFaultLabel faults={deliberateFaultsAt(deliberate, f.relPath)} />
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {result.matches.work.map((r) => (
        <WorkCard key={`w-${r.slug}`} r={r} query={q} projectId={projectId} deliberate={deliberate} />
      ))}
      {result.priorArt.map((p) =>
        p.record ? (
          <BrainstormCard key={`pa-${p.slug}`} r={p.record} title={`Prior art: Brainstorm '${p.slug}'`} query={p.slug} projectId={projectId} />
        ) : (
          <Card key={`pa-${p.slug}`}>
            <CardHeader title={`Prior art: Brainstorm '${p.slug}'`} description="Not found in the brainstorm or work folders." />
          </Card>
        ),
      )}
      {result.matches.brainstorm.map((r) => (
        <BrainstormCard key={`b-${r.slug}`} r={r} title="Brainstorm" query={q} projectId={projectId} />
      ))}
      {result.matches.proposal.map((r) => (
        <ProposalCard key={`p-${r.slug}`} r={r} query={q} projectId={projectId} />
      ))}
      {result.matches.refactoring.map((r) => (
        <RefactoringCard key={`r-${r.slug}`} r={r} query={q} projectId={projectId} />
      ))}
      {result.contentMatches.length ? (
        <Card>
          <CardHeader title="Matches in files" />
          <ul className="divide-y divide-border">
            {result.contentMatches.map((m) => (
              <li key={`${m.relPath}:${m.line}`} className="px-4 py-2 text-sm">
                <span className="font-mono text-xs">
                  {m.relPath}:{m.line}
                </span>
                <p className="truncate text-fg-muted">{m.excerpt}</p>
              </li>
            ))}
          </ul>
        </Card>
      ) : null}
      {result.requirements?.length ? (
        <Card>
          <CardHeader title="Requirements KB" description="Top matches by keyword, scored without a model." />
          <ul className="divide-y divide-border">
            {result.requirements.map((r) => (
              <li key={r.id} className="space-y-1 px-4 py-3 text-sm">
                <p>
                  <span className="font-mono text-xs font-medium">{r.id}</span> {r.title} <Badge tone="accent">relevance {r.relevance.toFixed(2)}</Badge>
                </p>
                {r.summary ? <UntrustedBlock text={r.summary} untrusted flagged={r.flagged} deliberate={deliberate} /> : null}
                <p className="text-xs text-fg-muted">
                  Tags: {r.tags.join(", ") || "none"} · Components: {r.components.join(", ") || "none"}
                </p>
              </li>
            ))}
          </ul>
        </Card>
      ) : null}
      {result.product?.length ? (
        <Card>
          <CardHeader title="Product Knowledge" />
          <ul className="divide-y divide-border">
            {result.product.map((p) => (
              <li key={p.relPath} className="space-y-1 px-4 py-3 text-sm">
                <p>
                  {p.title} <span className="font-mono text-xs text-fg-muted">{p.relPath}</span>
                </p>
                <UntrustedBlock text={p.excerpt} untrusted flagged={p.flagged} deliberate={deliberate} />
              </li>
            ))}
          </ul>
        </Card>
      ) : null}
      {result.git.branches.length || result.git.commits.length ? (
        <Card>
          <CardHeader title="Git History" />
          <div className="space-y-3 p-4 text-sm">
            {result.git.branches.length ? (
              <ul className="space-y-1">
                {result.git.branches.map((b) => (
                  <li key={b.name} className="flex items-center gap-2">
                    <GitBranch aria-hidden className="size-4 text-fg-muted" />
                    <span className="font-mono text-xs">{b.name}</span>
                    <span className="text-xs text-fg-muted">
                      last commit <Time iso={b.lastCommitDate} />
                    </span>
                  </li>
                ))}
              </ul>
            ) : null}
            <ul className="space-y-1">
              {result.git.commits.map((c) => (
                <li key={c.hash} className="flex gap-2">
                  <span className="font-mono text-xs text-accent">{c.shortHash}</span>
                  <span className="min-w-0 flex-1 truncate">{c.subject}</span>
                  <span className="text-xs text-fg-muted">
                    <Time iso={c.date} />
                  </span>
                </li>
              ))}
            </ul>
          </div>
        </Card>
      ) : null}
      {result.handoff ? (
        <Card>
          <CardHeader title="Start working" description={`Ready to start working on ${result.handoff.slug}? (type: ${result.handoff.type}, status: ${result.handoff.status})`} />
          <ul className="space-y-1 p-4 text-sm">
            {result.handoff.options.map((o) => (
              <li key={o.label} className="flex items-center gap-2">
                <span>{o.label}</span>
                {o.command ? <code className="rounded bg-muted px-1.5 py-0.5 font-mono text-xs">{o.command}</code> : null}
              </li>
            ))}
          </ul>
        </Card>
      ) : null}
      <details className="rounded-lg border border-border bg-surface">
        <summary className="cursor-pointer px-4 py-2 text-sm font-medium">Markdown for agents (the seed&apos;s output format)</summary>
        <pre id={MARKDOWN_ID} className="overflow-x-auto border-t border-border p-4 font-mono text-xs leading-relaxed" data-testid="load-context-markdown">
          {markdown}
        </pre>
      </details>
    </div>
  );
}

function PathNote() {
  return (
    <p role="note" className="rounded-md border border-border bg-muted px-3 py-2 text-xs text-fg-muted">
      The query contains <code>/</code> or <code>..</code>: it was not used to build any path (folder lookups skipped), but was still searched as data in manifests, branch names and commit messages.
    </p>
  );
}
