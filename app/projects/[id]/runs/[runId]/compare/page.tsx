import Link from "next/link";
import { notFound } from "next/navigation";
import { z } from "zod";
import { loadProjectOr404 } from "@/app/projects/[id]/load-project";
import { ProjectCrumbs } from "@/components/projects/project-crumbs";
import { BaselinePicker } from "@/components/runs/compare/baseline-picker";
import { ChangesList } from "@/components/runs/compare/changes-list";
import { CompareSummary } from "@/components/runs/compare/compare-summary";
import { ContradictionsDiff } from "@/components/runs/compare/contradictions-diff";
import { compareHref } from "@/components/runs/compare/href";
import { SignalsChart } from "@/components/runs/compare/signals-chart";
import { SignalsTable } from "@/components/runs/compare/signals-table";
import { Card, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { isWorkbenchError } from "@/lib/core/errors";
import { COMPARE_SECTIONS, compareQuerySchema } from "@/lib/deep-context/compare";
import { compareChoices, compareRun, type CompareChoices, type RunCompareResult } from "@/lib/deep-context/service";
import { plural } from "@/lib/core/plural";

export const dynamic = "force-dynamic";
export const metadata = { title: "Compare run" };

const PAGE_SIZE = 100;

// Anything unreadable falls back to the default view; only the baseline is reported when wrong.
const pageQuery = z.object({
  base: z.string().max(100).optional().catch(undefined).describe("run:<runId> or iter:<N>"),
  changes: z.enum(["1", "true"]).optional().catch(undefined).describe("changes only"),
  section: z.enum(COMPARE_SECTIONS).optional().catch(undefined).describe("the list shown"),
  page: z.coerce.number().int().min(1).max(100_000).catch(1).describe("page of that list"),
});

const expected = (e: unknown) => isWorkbenchError(e) && (e.code === "NOT_FOUND" || e.code === "INVALID_INPUT");

export default async function ComparePage({ params, searchParams }: { params: Promise<{ id: string; runId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { id, runId } = await params;
  const raw = Object.fromEntries(Object.entries(await searchParams).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v]));
  const q = pageQuery.parse(raw);
  const changesOnly = q.changes !== undefined;
  const project = await loadProjectOr404(id);

  let choices: CompareChoices;
  try {
    choices = await compareChoices(id, runId);
  } catch (e) {
    if (isWorkbenchError(e) && e.code === "NOT_FOUND") notFound();
    if (!expected(e)) throw e;
    return (
      <div>
        <PageHeader crumbs={<ProjectCrumbs id={id} name={project.name} extra={[{ href: `/projects/${id}/runs`, label: "Runs" }]} />} title="Compare runs" />
        <EmptyState title="Nothing to compare">{(e as Error).message}</EmptyState>
      </div>
    );
  }

  let result: RunCompareResult | null = null;
  let error: string | null = null;
  if (q.base) {
    const section = q.section && !(changesOnly && q.section === "unchanged") ? q.section : undefined;
    const req = compareQuerySchema.safeParse({ base: q.base, changes: changesOnly ? "1" : "", section, offset: section ? (q.page - 1) * PAGE_SIZE : 0, limit: PAGE_SIZE });
    if (!req.success) error = `“${q.base}” is not a baseline: give run:<runId> or iter:<N>.`;
    else {
      try {
        result = await compareRun(id, runId, req.data);
      } catch (e) {
        if (!expected(e)) throw e;
        error = (e as Error).message;
      }
    }
  }

  const { run } = choices;
  const runHref = `/projects/${id}/runs/${runId}`;
  const baselineLabel = result ? (result.baseline.kind === "iteration" ? `Iteration ${result.baseline.iteration}` : "Baseline run") : "Baseline";
  const selected = result ? (result.sections.find((s) => s.name === q.section) ?? result.sections.find((s) => s.count > 0) ?? result.sections[0]!).name : null;
  const list = result && selected ? result.lists[selected] : undefined;
  const lastIteration = choices.iterations[choices.iterations.length - 1];
  const suggestions = [
    ...(choices.iterations.length > 1 ? [{ base: `iter:${choices.iterations[choices.iterations.length - 2]}`, label: `the previous iteration (${choices.iterations[choices.iterations.length - 2]})` }] : []),
    ...(choices.runs[0] ? [{ base: `run:${choices.runs[0].id}`, label: choices.runs[0].relPath }] : []),
  ];

  return (
    <div className="space-y-6">
      <PageHeader
        crumbs={
          <ProjectCrumbs
            id={id}
            name={project.name}
            extra={[
              { href: `/projects/${id}/runs`, label: "Runs" },
              { href: runHref, label: run.relPath },
            ]}
          />
        }
        title="Compare with a baseline"
        description={
          result
            ? result.baseline.kind === "iteration"
              ? `${run.relPath} now, against itself as it stood after iteration ${result.baseline.iteration} (later seats and state-log records left out).`
              : `${run.relPath} (current) against ${result.baseline.run.relPath} (baseline). Units are matched by unit_id.`
            : `${run.relPath}: pick another run of the project, or one of this run's iterations.`
        }
        actions={
          <Link href={runHref} className="text-sm text-accent hover:underline focus-visible:outline-2 focus-visible:outline-accent">
            Back to the run
          </Link>
        }
      />

      <Card className="p-4">
        <BaselinePicker
          key={`${q.base ?? ""}|${changesOnly}`}
          projectId={id}
          runId={runId}
          base={result?.baseline.ref ?? null}
          changesOnly={changesOnly}
          runs={choices.runs.map((r) => ({ id: r.id, relPath: r.relPath, iterations: r.iterations }))}
          iterations={choices.iterations}
        />
      </Card>

      {error ? (
        <div role="alert" className="rounded-lg border border-danger/40 bg-danger/10 px-4 py-3 text-sm" data-testid="compare-error">
          <p className="font-medium text-danger">Cannot compare with this baseline</p>
          <p className="mt-0.5">{error}</p>
          <p className="mt-1 text-xs text-fg-muted">Choose another baseline above.</p>
        </div>
      ) : null}

      {!q.base ? (
        <EmptyState title="Choose a baseline">
          Compare this run with another run of the project, or with itself as it stood after an earlier iteration
          {lastIteration ? ` (it has ${plural(choices.iterations.length, "iteration")})` : ""}.
          {suggestions.length ? (
            <span className="mt-2 block">
              Try{" "}
              {suggestions.map((s, i) => (
                <span key={s.base}>
                  {i ? " or " : ""}
                  <Link className="text-accent hover:underline" href={compareHref(id, runId, { base: s.base })}>
                    {s.label}
                  </Link>
                </span>
              ))}
              .
            </span>
          ) : null}
        </EmptyState>
      ) : null}

      {result ? (
        <>
          <CompareSummary counts={result.counts} />
          {result.unchanged ? <EmptyState title="Nothing changed">The current run and {baselineLabel.toLowerCase()} have the same units, agreement, relevance, buckets, contradictions and signals.</EmptyState> : null}
          <Card>
            <CardHeader title="Signals" description="Each convergence signal and the composite score, recomputed the same way on both sides (documented formulas)." />
            <div className="grid gap-4 p-4 lg:grid-cols-[3fr_2fr]">
              <SignalsTable signals={result.signals} baselineLabel={baselineLabel} changesOnly={changesOnly} />
              {result.signals.rows.length ? <SignalsChart rows={result.signals.rows} baselineLabel={baselineLabel} /> : null}
            </div>
          </Card>
          {result.counts.contradictionsNew + result.counts.contradictionsResolved > 0 ? (
            <Card>
              <CardHeader title="Contradictions" description={`${result.counts.contradictionsNew} new, ${result.counts.contradictionsResolved} resolved (matched by unit and field).`} />
              <ContradictionsDiff added={result.contradictions.new} resolved={result.contradictions.resolved} total={{ added: result.counts.contradictionsNew, resolved: result.counts.contradictionsResolved }} />
            </Card>
          ) : null}
          {selected && list && !(result.unchanged && changesOnly) ? (
            <Card>
              <CardHeader title="Units" description={changesOnly ? "Changes only: unchanged units are hidden." : "Every unit of both sides, by what happened to it."} />
              <ChangesList
                projectId={id}
                runId={runId}
                base={result.baseline.ref}
                changesOnly={changesOnly}
                sections={result.sections}
                selected={selected}
                list={list}
                page={q.section ? q.page : 1}
                pageSize={PAGE_SIZE}
              />
            </Card>
          ) : null}
        </>
      ) : null}
    </div>
  );
}
