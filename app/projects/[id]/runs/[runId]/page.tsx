import { DataTable } from "@/components/ui/data-table";
import Link from "next/link";
import { loadProjectOr404 } from "@/app/projects/[id]/load-project";
import { ProjectCrumbs } from "@/components/projects/project-crumbs";
import { AgreementMatrix } from "@/components/runs/agreement-matrix";
import { CoverageGraph } from "@/components/runs/coverage-graph";
import { ContextReportView } from "@/components/runs/context-report";
import { decisionTone } from "@/components/runs/decision-tone";
import { FindingsExplorer } from "@/components/runs/findings-explorer";
import { SavedViews } from "@/components/views/saved-views";
import { savedViews } from "@/lib/views/service";
import { LiveRefresh } from "@/components/runs/live-refresh";
import { SiblingTimeline } from "@/components/runs/sibling-timeline";
import { SignalCharts } from "@/components/runs/signal-charts";
import { VariantSwitch } from "@/components/runs/variant-switch";
import { Badge } from "@/components/ui/badge";
import { Card, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { ResourceUri } from "@/components/mcp/resource-uri";
import { runUri } from "@/lib/mcp/uris";
import { Time } from "@/components/ui/time";
import { StateLogNotice } from "@/components/runs/state-log-notice";
import { WindowNav } from "@/components/runs/window-nav";
import { runWindowFromParams } from "@/lib/deep-context/views";
import { runForProject } from "@/lib/deep-context/service";
import { plural } from "@/lib/core/plural";

export const dynamic = "force-dynamic";
export const metadata = { title: "Run" };

const EVENT_LABEL: Record<string, string> = {
  frontier_seeded: "Frontier seeded",
  sweep_settled: "Sweep settled",
  graph_convergence: "Graph convergence",
  blocked_stop: "Blocked stop",
  stuckRecovery: "Stuck recovery",
  userPaused: "Paused",
  loop_stopped: "Loop stopped",
  synthesis_complete: "Synthesis complete",
  resumed: "Resumed",
  restarted: "Restarted",
  lock_released: "Lock released",
};

/** Contradictions drawn inline; the rest are one filter away in the findings explorer. */
const CONTRADICTIONS_SHOWN = 50;

export default async function RunPage({ params, searchParams }: { params: Promise<{ id: string; runId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { id, runId } = await params;
  const sp = await searchParams;
  const variant = sp.variant === "stored" ? "stored" : "documented";
  // The explorer keeps its filters in state: a new URL on this page (a saved view, a finding
  // link) must start it afresh.
  const explorerKey = Object.entries(sp)
    .filter(([k, v]) => (k.startsWith("f.") || k === "finding") && typeof v === "string")
    .map(([k, v]) => `${k}=${v as string}`)
    .sort()
    .join("&");
  // Lists that grow with the state log come one window at a time; the window is in the URL.
  const windows = runWindowFromParams(sp);
  const query: Record<string, string> = Object.fromEntries(Object.entries(sp).filter((e): e is [string, string] => typeof e[1] === "string"));
  const basePath = `/projects/${id}/runs/${runId}`;
  const project = await loadProjectOr404(id);
  const [{ run, view, timeline, version }, allFindingViews] = await Promise.all([runForProject(project, runId, variant, windows), savedViews(project, "findings")]);
  // Only this run's saved views; the path is `/projects/<id>/runs/<runId>?…`.
  const findingViews = allFindingViews.filter((v) => new URL(v.path, "http://workbench.invalid").pathname === `/projects/${id}/runs/${runId}`);
  const crumbs = <ProjectCrumbs id={id} name={project.name} extra={[{ href: `/projects/${id}/runs`, label: "Runs" }]} />;
  if (!view) {
    return (
      <div>
        <PageHeader crumbs={crumbs} title={<span className="font-mono text-base">{run.relPath}</span>} description={`${run.loopType} · ${plural(run.iterations, "iteration")} · ${run.stopReason ?? run.status ?? ""}`} />
        <ResourceUri uri={runUri(id, runId)} className="-mt-2 mb-4" />
        {timeline ? (
          <Card>
            <CardHeader title={`deep-${run.loopType} iterations`} description="Each iteration with the signals of this loop's stop vote (rolling average, MAD noise floor, question or dimension coverage)." />
            <div id="iterations" className="p-4">
              <SiblingTimeline timeline={timeline} />
            </div>
            <WindowNav window={timeline.entryWindow} noun="iterations" param="iterations" basePath={basePath} searchParams={query} anchor="iterations" />
          </Card>
        ) : (
          <EmptyState title={`A deep-${run.loopType} run`}>No state log to show.</EmptyState>
        )}
      </div>
    );
  }
  const d = view.payload.data;
  const prov = view.provenance;
  const through = prov.computedThrough === null ? "" : ` through #${prov.computedThrough}`;
  const loggedLabel = prov.loggedSource === "graph_convergence" ? "graph_convergence events" : "iteration records";
  const blocking = d.blockers.filter((b) => b.severity === "blocking");
  return (
    <div className="space-y-6">
      <PageHeader
        crumbs={crumbs}
        title={<span className="font-mono text-base">{run.relPath}</span>}
        description={view.scope ?? undefined}
        actions={
          <>
            <Link href={`/projects/${id}/runs/${runId}/compare`} className="rounded-md border border-border px-2.5 py-1 text-sm hover:bg-muted focus-visible:outline-2 focus-visible:outline-accent">
              Compare…
            </Link>
            <LiveRefresh projectId={id} runId={runId} version={version} />
          </>
        }
      />
      <ResourceUri uri={runUri(id, runId)} className="-mt-4" />

      <Card>
        <CardHeader
          title={
            <span className="flex items-center gap-2">
              Decision <Badge tone={decisionTone(d.decision)}>{d.decision}</Badge>
              {view.replay?.stopReason ? <Badge>stop: {view.replay.stopReason}</Badge> : null}
            </span>
          }
          description={
            <>
              {d.reason}{" "}
              <span data-testid="decision-provenance" className="block text-xs">
                Computed by the Workbench{through} from {prov.computedFrom}.
                {prov.loggedDecision
                  ? ` The state log's last graph decision${prov.loggedDecision.run === null ? "" : ` (#${prov.loggedDecision.run})`}: ${prov.loggedDecision.decision}.`
                  : " The state log holds no graph decision."}
              </span>
            </>
          }
        />
        {/* The gates take the card's width: each row carries both sources of its numbers. */}
        <div className="space-y-4 p-4">
          <div>
            <h3 className="mb-1 text-xs font-semibold uppercase tracking-wide text-fg-muted">Gates</h3>
            <DataTable
              label="Convergence trace"
              primary={false}
              className="rounded-none border-0 bg-transparent"
              columns={[
                { id: "signal", header: "Signal", rowHeader: true, className: "px-0 py-1 pr-3", cellClassName: "font-mono text-xs" },
                { id: "computed", header: `Computed${through}`, title: `The Workbench's convergence over ${prov.computedFrom}`, className: "px-0 py-1 pr-3", cellClassName: "tabular-nums" },
                {
                  id: "logged",
                  header: "State log",
                  title: prov.loggedSource ? `The last value in the state log's ${loggedLabel}, with its iteration` : "The state log holds no signal values",
                  className: "px-0 py-1 pr-3",
                  cellClassName: "tabular-nums",
                },
                { id: "threshold", header: "Threshold", className: "px-0 py-1 pr-3", cellClassName: "text-xs text-fg-muted" },
                { id: "result", header: "Result", title: "Of the computed value: the decision above is the Workbench's", className: "px-0 py-1 pr-3" },
                { id: "role", header: "Role", className: "px-0 py-1", cellClassName: "text-xs text-fg-muted" },
              ]}
              rows={prov.gates.map((g) => ({
                key: g.signal,
                data: { "data-differs": String(g.differs) },
                cells: {
                  signal: g.signal,
                  computed: g.computed ? (
                    <>
                      <span title={g.computed.counts}>{g.computed.value.toFixed(3)}</span>
                      {g.computed.vacuous ? (
                        <Badge className="ml-1" title="Nothing to measure (0/0): the signal passes by definition.">
                          vacuous
                        </Badge>
                      ) : null}
                      <span className="block whitespace-nowrap text-[11px] text-fg-muted">{g.computed.counts}</span>
                    </>
                  ) : (
                    "—"
                  ),
                  logged: g.logged ? (
                    <span className="whitespace-nowrap">
                      {g.logged.value.toFixed(3)} <span className="text-[11px] text-fg-muted">#{g.logged.run}</span>
                      {g.differs ? (
                        <Badge tone="warn" className="ml-1" title="Differs from the computed value: see below the table.">
                          differs
                        </Badge>
                      ) : null}
                    </span>
                  ) : (
                    "—"
                  ),
                  threshold: `≥ ${g.threshold}`,
                  result: g.computed ? (
                    <Badge tone={g.computed.passed ? "ok" : g.role === "blocking_guard" ? "danger" : "warn"}>{g.computed.passed ? "passes" : g.role === "blocking_guard" ? "blocks" : "below"}</Badge>
                  ) : (
                    "—"
                  ),
                  role: g.role === "blocking_guard" ? "blocking guard" : "weighted",
                },
              }))}
            />
            {prov.explanation ? (
              <p data-testid="signal-provenance" className="mt-2 text-xs text-fg-muted">
                {prov.explanation}
              </p>
            ) : null}
          </div>
          <div className="space-y-2 text-sm">
            <p>
              Composite score <strong className="tabular-nums">{d.score}</strong> computed
              {prov.loggedScore ? (
                <>
                  , <span className="tabular-nums">{prov.loggedScore.value}</span> in the state log (#{prov.loggedScore.run})
                </>
              ) : null}{" "}
              <span className="text-xs text-fg-muted">(telemetry, never a gate)</span>
            </p>
            <div className="flex items-center gap-2 text-xs text-fg-muted">
              Signal formulas <VariantSwitch current={variant} hrefFor={(v) => `/projects/${id}/runs/${runId}${v === "documented" ? "" : `?variant=${v}`}`} />
            </div>
            {blocking.length ? (
              <p>
                Blocked by:{" "}
                {blocking.map((b) => (
                  <Badge key={b.type} tone="danger" className="mr-1">
                    {b.type}
                    {b.count !== undefined ? ` ×${b.count}` : ""}
                  </Badge>
                ))}
              </p>
            ) : null}
            <p className="text-xs text-fg-muted">
              Coverage graph: {plural(view.graph.nodes, "node")}, {plural(view.graph.edges, "edge")},{" "}
              {view.graphSource.origin === "derived" ? "derived from the merged findings (the packet stores no graph)" : "stored in the packet"}.
            </p>
            {view.registry ? (
              <p className="text-xs text-fg-muted">
                Registry: {plural(view.registry.metrics.findings, "unit")}, {view.registry.metrics.gatedFindings} above the {view.registry.relevanceGate} gate, {view.registry.metrics.agreementEligible}{" "}
                agreement-eligible, {plural(view.registry.metrics.contradictions, "contradiction")}; seat files with findings from {view.registry.executorPool.join(", ") || "no executor"}.
              </p>
            ) : null}
            <p data-testid="run-executors" className="text-xs text-fg-muted">
              Executors ({view.executors.length}):{" "}
              {view.executors.length
                ? view.executors
                    .map(
                      (x) =>
                        `${x.label}${x.kind || x.model ? ` (${[x.kind, x.model].filter(Boolean).join(", ")})` : ""}: ${[
                          x.configured ? "in the config's pool" : null,
                          x.sweeps ? `${x.sweeps} sweep(s)${x.failedSweeps ? `, ${x.failedSweeps} failed` : ""}` : null,
                          x.seatFileIterations ? `seat files for ${x.seatFileIterations} iteration(s)` : "no seat file in the packet",
                        ]
                          .filter(Boolean)
                          .join(", ")}`,
                    )
                    .join("; ")
                : "none named by the config, the state log or the seat files"}
              .
            </p>
          </div>
        </div>
      </Card>

      {view.stateLog && view.stateLog.reading !== "intact" ? <StateLogNotice log={view.stateLog} relPath={`${run.relPath}/deep-context-state.jsonl`} /> : null}

      {view.report ? (
        <Card>
          <CardHeader title="Context Report" description={`${view.report.relPath}: the REUSE catalog first, each entry checked against the repository as it is now.`} />
          <div className="p-4">
            <ContextReportView report={view.report} />
          </div>
        </Card>
      ) : null}

      <Card>
        <CardHeader
          title="Signals per iteration"
          description={`Solid: the state log's ${loggedLabel}${prov.loggedSource === "graph_convergence" ? " (what the loop gated on)" : ""}. Dotted: each iteration record's own figure. ◆: the Workbench's value${through} (the Gates' computed column). Dashed lines are thresholds: red for blocking guards, amber for weighted signals.`}
        />
        <div id="iterations" className="p-4">
          {view.signalPoints.length ? (
            <SignalCharts data={view.signalPoints} thresholds={view.signalThresholds} convergenceThreshold={view.convergenceThreshold} showRecord={prov.loggedSource === "graph_convergence"} />
          ) : (
            <EmptyState title="No iterations yet" />
          )}
        </div>
        {view.iterationWindow.count < view.iterationWindow.total ? <WindowNav window={view.iterationWindow} noun="iterations" param="iterations" basePath={basePath} searchParams={query} anchor="iterations" /> : null}
      </Card>

      {view.replay ? (
        <Card>
          <CardHeader title="Why the loop went on or stopped" description="The host loop's stop rules replayed over the state log." />
          {view.replay.entryWindow.count < view.replay.entryWindow.total ? (
            <WindowNav window={view.replay.entryWindow} noun="iterations" param="iterations" basePath={basePath} searchParams={query} anchor="replay" />
          ) : null}
          <ol id="replay" className="divide-y divide-border" aria-label="Loop replay">
            {view.replay.entries.map((e) => (
              <li key={e.run} className="grid grid-cols-[3rem_9rem_1fr] gap-3 px-4 py-2 text-sm">
                <span className="tabular-nums text-fg-muted">#{e.run}</span>
                <span>
                  <Badge tone={e.decision === "STOP" ? "ok" : e.decision === "BLOCKED" ? "danger" : e.decision === "STUCK_RECOVERY" ? "warn" : "accent"}>{e.decision}</Badge>
                </span>
                <span>
                  {e.explanation}
                  {e.focus ? <span className="block text-xs text-fg-muted">focus: {e.focus}</span> : null}
                  {e.divergences.length ? <span className="block text-xs text-warn">log differs: {e.divergences.join("; ")}</span> : null}
                </span>
              </li>
            ))}
          </ol>
        </Card>
      ) : null}

      <Card>
        <CardHeader
          title="Event timeline"
          description={`In time order (events logged at the same instant in log order)${view.eventWindow.count < view.eventWindow.total ? "; one window at a time, the latest by default, older ones a link away" : ""}.`}
        />
        <WindowNav window={view.eventWindow} noun="events" param="events" basePath={basePath} searchParams={query} anchor="events" />
        <ol id="events" className="max-h-96 divide-y divide-border overflow-auto" aria-label="Events" start={view.eventWindow.offset + 1}>
          {view.events.map((e, i) => {
            const rec = e as unknown as Record<string, unknown>;
            const failed = Array.isArray(rec.seatsFailed) ? (rec.seatsFailed as string[]) : [];
            const blockers = Array.isArray(rec.blockedBy) ? rec.blockedBy : Array.isArray(rec.blockers) ? rec.blockers : [];
            return (
              <li key={view.eventWindow.offset + i} className="flex flex-wrap items-center gap-2 px-4 py-1.5 text-sm">
                <span className="w-40 text-xs text-fg-muted">
                  <Time iso={typeof rec.timestamp === "string" ? rec.timestamp : null} />
                </span>
                <Badge tone={e.event === "blocked_stop" ? "danger" : e.event === "stuckRecovery" ? "warn" : "neutral"}>{EVENT_LABEL[e.event] ?? e.event}</Badge>
                {typeof rec.run === "number" ? <span className="text-xs">run {rec.run}</span> : null}
                {typeof rec.decision === "string" ? <Badge tone={decisionTone(rec.decision)}>{rec.decision}</Badge> : null}
                {failed.length ? <span className="text-xs text-danger">failed seats: {failed.join(", ")}</span> : null}
                {blockers.length ? <span className="text-xs">blockers: {blockers.map((b) => (typeof b === "string" ? b : (b as { type?: string }).type)).join(", ")}</span> : null}
                {typeof rec.stopReason === "string" ? <span className="text-xs">{rec.stopReason}</span> : null}
              </li>
            );
          })}
        </ol>
      </Card>

      <Card>
        <CardHeader
          title="Coverage graph"
          description={view.graphSource.origin === "derived" ? "Derived from the merged findings and iteration slices: this packet stores no graph." : "The graph stored in the packet."}
        />
        <div className="p-4">
          <CoverageGraph projectId={id} runId={runId} nodeCount={view.graph.nodes} edgeCount={view.graph.edges} />
        </div>
      </Card>

      {view.agreement ? (
        <Card>
          <CardHeader title="Agreement between executors" description="Findings above the relevance gate that each pair of executors both produced." />
          <div className="p-4">
            <AgreementMatrix view={view.agreement} />
          </div>
        </Card>
      ) : null}

      {view.registry?.contradictions.length ? (
        <Card>
          <CardHeader title={`Contradictions (${view.registry.contradictions.length})`} description="The same unit with different signature or reuse values from different seats." />
          <ul className="divide-y divide-border">
            {view.registry.contradictions.slice(0, CONTRADICTIONS_SHOWN).map((c) => (
              <li key={c.unit_id + c.field} className="px-4 py-2 text-sm">
                <p className="font-mono text-xs">
                  {c.symbol} <span className="text-fg-muted">{c.path}</span> · {c.field}
                </p>
                <div className="mt-1 grid gap-2 sm:grid-cols-2">
                  {Object.entries(c.values).map(([seat, v]) => (
                    <div key={seat} className="rounded border border-border p-2 text-xs">
                      <span className="font-medium">{seat}</span>: <span className="font-mono">{v}</span>
                    </div>
                  ))}
                </div>
              </li>
            ))}
          </ul>
          {view.registry.contradictions.length > CONTRADICTIONS_SHOWN ? (
            <p className="border-t border-border px-4 py-2 text-xs text-fg-muted">
              Showing {CONTRADICTIONS_SHOWN} of {view.registry.contradictions.length.toLocaleString("en")}; tick “contradicted only” in the findings below for the rest.
            </p>
          ) : null}
        </Card>
      ) : null}

      <Card>
        <CardHeader title="Findings" description="Every bucket and lowConfidence, as the reducer builds the registry. j / k move through them, / filters." />
        <div className="border-b border-border px-4 py-2">
          <SavedViews projectId={id} surface="findings" views={findingViews} suggestedName={`Findings of ${run.relPath.split("/").slice(-2, -1)[0] ?? "this run"}`} />
        </div>
        <div className="p-4">
          <FindingsExplorer key={explorerKey} projectId={id} runId={runId} facets={view.findingsFacets} first={view.firstFindings} executors={view.agreement?.executors ?? []} />
        </div>
      </Card>

      {view.warnings.length ? (
        <Card>
          <CardHeader title={`Warnings (${view.warningCount.toLocaleString("en")})`} description={view.warningCount > view.warnings.length ? `The first ${view.warnings.length} are listed.` : undefined} />
          <ul className="space-y-0.5 p-4 text-xs" aria-label="Run warnings">
            {view.warnings.map((w, i) => (
              <li key={i}>{w}</li>
            ))}
          </ul>
        </Card>
      ) : null}
    </div>
  );
}
