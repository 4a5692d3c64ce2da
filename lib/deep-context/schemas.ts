/**
 * Zod schemas of every file format the deep-context reducer reads and writes
 * (FORMATS.md §1.1–1.5), for validation, documentation and typed access elsewhere.
 *
 * The reducer itself does not validate with these: it must reproduce the reference
 * reducer exactly, and the reference coerces rather than rejects (`relevance: "0.7"` counts
 * as 0.7, `kind: ["gap"]` as "gap", a config of `0` still reduces). Importing zod also
 * costs ~90 ms, which `workbench reduce` does not pay. Inputs are therefore loose: fields
 * are optional and unknown keys pass through.
 */
import { z } from "zod";
import { defineRoute, opaque, pathId, projectParams } from "../core/contract";
import type { RunRowDto } from "../db/repositories/runs";
// The browser's API client imports these contracts: values come from the leaf modules that
// hold them (zod only), not from the folders' index files, which also export the file watcher
// and the readers of the run packet.
import { compareQuerySchema } from "./compare/query";
import { SIGNAL_VARIANTS } from "./convergence/signals";
import { findingsQuerySchema } from "./views/findings-query";
import { runWindowQuerySchema } from "./views/run-window";
import type { EvidenceCheck, FindingsPage } from "./views";
import { FINDING_KINDS } from "./types";

const num = z.number();
const str = z.string();

// ---------------------------------------------------------------------------
// Inputs

export const deepContextConfigSchema = z
  .object({
    scope: str.optional().describe("what to gather context for; shown (whitespace-folded) on the dashboard"),
    specFolder: str.optional().describe("spec folder the packet belongs to, e.g. specs/042-feature; matches child-phase packets"),
    loopType: z.literal("context").optional().describe('always "context"'),
    executionMode: str.optional().describe('"auto" or "confirm"'),
    maxIterations: num.optional().describe("iteration cap (default 8); the dashboard shows `N of maxIterations`"),
    convergenceThreshold: num.optional().describe("new agreement-eligible findings per iteration at saturation (default 0.10)"),
    antiConvergence: z
      .object({
        minIterations: num.optional().describe("iterations before STOP may be allowed (default 2)"),
        convergenceMode: str.optional().describe('"default"'),
        stopPolicy: str.optional().describe('"fail-closed"'),
      })
      .loose()
      .optional()
      .describe("guards against stopping too early"),
    stuckThreshold: num.optional().describe("iterations without progress before stuck recovery (default 2)"),
    maxToolCallsPerIteration: num.optional().describe("tool-call budget per seat and iteration (default 12)"),
    relevanceGate: num.optional().describe("findings below this relevance go to lowConfidence (default 0.55; used when a finite number)"),
    agreementMin: num.optional().describe("distinct executors for agreement-eligibility (default 2; used when a finite number)"),
    fanout: z
      .object({
        mode: str.optional().describe('"by-model-shared-scope"'),
        concurrency: num.optional().describe("seats run at once (default 4)"),
        executors: z
          .array(
            z
              .object({
                kind: str.optional().describe('"native" or a CLI seat kind such as "cli-opencode"'),
                label: str.optional().describe("seat label: the seat file is seats/iter-NNN/{label}.json"),
                model: str.optional().describe("model id for CLI seats"),
                promptFramework: str.optional().describe("prompt framework for the model, e.g. COSTAR"),
              })
              .loose(),
          )
          .optional()
          .describe("the executor pool"),
      })
      .loose()
      .optional()
      .describe("how the pool sweeps the scope"),
    report: z.object({ path: str.optional(), jsonPath: str.optional() }).loose().optional().describe("where synthesis writes the Context Report"),
    reducer: z
      .object({ enabled: z.boolean().optional(), registryFile: str.optional(), dashboardFile: str.optional() })
      .loose()
      .optional()
      .describe("reducer outputs (context/findings-registry.json, context/deep-context-dashboard.md)"),
    lineage: z
      .object({
        sessionId: str.optional().describe("session id; a later resumed/restarted event overrides it"),
        parentSessionId: str.optional().nullable().describe("session this one continues"),
        lineageMode: str.optional().describe('"new", "resume" or "restart" (default "new")'),
        generation: num.optional().describe("lineage generation (default 1)"),
      })
      .loose()
      .optional()
      .describe("session lineage; read by the reducer from this file only (not from the log's config line)"),
    createdAt: str.optional().describe("ISO-8601; the dashboard's Started line"),
    status: str.optional().describe('"initialized", "running", "complete"/"completed" (synthesis sets complete)'),
  })
  .loose()
  .describe("context/deep-context-config.json");

export const stateConfigRecordSchema = z
  .object({
    type: z.literal("config"),
    scope: str.optional().describe("as in the config file"),
    loopType: str.optional().describe('"context"'),
    maxIterations: num.optional(),
    convergenceThreshold: num.optional(),
    relevanceGate: num.optional(),
    agreementMin: num.optional(),
    fanout: z.object({ mode: str.optional(), concurrency: num.optional() }).loose().optional(),
    createdAt: str.optional(),
    specFolder: str.optional(),
  })
  .loose()
  .describe("first line of the state log; the reducer ignores it (it reads the config file)");

export const stateIterationRecordSchema = z
  .object({
    type: z.literal("iteration"),
    run: num.describe("iteration number; records are shown sorted by it"),
    mode: str.optional().describe('"context"'),
    status: str.optional().describe('"evidence" or "error" (an error in the latest iteration adds ACTIVE RISKS)'),
    focus: str.optional().describe("the iteration's shared focus"),
    findingsCount: num.optional().describe("seat findings this iteration"),
    newAgreementEligible: num.optional().describe("units that became agreement-eligible this iteration"),
    agreementEligible: num.optional().describe("cumulative agreement-eligible units"),
    sliceCoverage: num.optional().describe("0..1"),
    reuseCatalogCoverage: num.optional().describe("0..1"),
    agreementRate: num.optional().describe("0..1"),
    relevanceFloor: num.optional().describe("0..1"),
    dependencyCompleteness: num.optional().describe("0..1"),
    contradictions: num.optional().describe("contradictions surfaced this iteration"),
    seatsSucceeded: num.optional().describe("seats that returned findings"),
    durationMs: num.optional(),
    timestamp: str.optional().describe("ISO-8601"),
    sessionId: str.optional(),
    generation: num.optional(),
  })
  .loose()
  .describe("one parallel sweep");

export const graphBlockerSchema = z
  .union([str, z.object({ type: str.optional(), name: str.optional(), severity: str.optional(), count: num.optional() }).loose()])
  .describe('blocker type, or {type, severity: "blocking"|"warning", count}');

export const stateEventRecordSchema = z
  .object({
    type: z.literal("event"),
    event: str.describe(
      "resumed | restarted | frontier_seeded | sweep_settled | graph_convergence | blocked_stop | userPaused | stuckRecovery | lock_released | synthesis_complete | loop_stopped (progress_record events are ignored)",
    ),
    mode: str.optional(),
    run: num.optional(),
    sessionId: str.optional().describe("resumed/restarted: the new session id"),
    lineageMode: str.optional().describe('resumed: "resume"; restarted: "restart"'),
    generation: num.optional(),
    decision: str.optional().describe("graph_convergence: CONTINUE | STOP_ALLOWED | STOP_BLOCKED"),
    signals: z
      .object({
        sliceCoverage: num.optional(),
        reuseCatalogCoverage: num.optional(),
        agreementRate: num.optional(),
        relevanceFloor: num.optional(),
        dependencyCompleteness: num.optional(),
        score: num.optional(),
      })
      .loose()
      .optional()
      .describe("graph_convergence: the five signals and the composite score"),
    blockers: z.array(graphBlockerSchema).optional().describe("graph_convergence: what blocks STOP"),
    timestamp: str.optional(),
  })
  .loose()
  .describe("a lifecycle event");

export const stateProgressRecordSchema = z
  .object({ type: z.literal("progress") })
  .loose()
  .describe("liveness record (type progress, or event progress_record): never counted as an iteration or event");

/** One line of deep-context-state.jsonl. */
export const stateRecordSchema = z.union([stateConfigRecordSchema, stateIterationRecordSchema, stateEventRecordSchema, stateProgressRecordSchema]).describe("context/deep-context-state.jsonl line");

export const seatFindingSchema = z
  .object({
    unit_id: str.optional().describe("explicit unit id (trimmed); else sha256 of normalised path:symbol:kind"),
    path: str.optional().describe("repository-relative file; path or symbol is required"),
    symbol: str.optional().describe("function, type or construct name"),
    kind: z.enum(FINDING_KINDS).optional().describe("default reuse_candidate; others are rejected with a seat validation warning"),
    signature: str.optional().describe("signature as the seat saw it; differing signatures for one unit are contradictions"),
    reuse: str.optional().describe("extend | compose | wrap | import; differing verbs for one unit are contradictions"),
    evidence: str.optional().describe('"file:line"'),
    relevance: num.optional().describe("0..1; the unit keeps the maximum; non-numeric values are rejected"),
    notes: str.optional(),
  })
  .loose()
  .describe("one finding of one seat");

export const seatFileSchema = z
  .union([z.array(seatFindingSchema), z.object({ findings: z.array(seatFindingSchema) }).loose()])
  .describe("seats/iter-NNN/{label}.json (or seats/{label}/iter-NNN/*.json): an array of findings or {findings: [...]}");

export const deltaRecordSchema = z
  .union([
    stateIterationRecordSchema,
    z
      .object({
        type: z.literal("finding"),
        run: num.optional(),
        path: str.optional(),
        symbol: str.optional(),
        kind: str.optional(),
        agreement: num.optional().describe("producers so far"),
        producedBy: z.array(str).optional().describe("seat labels"),
        relevance: num.optional(),
        notes: str.optional(),
      })
      .loose(),
  ])
  .describe("deltas/iter-NNN.jsonl line (host-written; not read by the reducer)");

// ---------------------------------------------------------------------------
// Outputs (strict: the reducer writes exactly these keys)

export const registryFindingSchema = z.object({
  unit_id: str.describe("64 hex, or the seat's explicit unit_id"),
  path: str.describe("normalised path"),
  symbol: str.describe("normalised symbol"),
  kind: str.describe("one of the five finding kinds"),
  signature: str.describe("first non-empty signature from any producer"),
  reuse: str.describe("first non-empty reuse verb"),
  evidence: str.describe("first non-empty evidence"),
  notes: str.describe("first non-empty notes"),
  producedBy: z.array(str).describe("distinct seat labels, sorted"),
  agreement: num.describe("number of producers"),
  agreementEligible: z.boolean().describe("agreement >= agreementMin"),
  relevance: num.nullable().describe("max relevance, rounded to 3 decimals (null only for non-finite values)"),
  firstIteration: num.describe("earliest iteration that found it"),
  droppedBelowGate: num.optional().describe("lowConfidence only: the gate it missed"),
});

export const contradictionSchema = z.object({
  unit_id: str,
  path: str,
  symbol: str,
  field: z.enum(["signature", "reuse"]).describe("which contract field differs"),
  values: z.record(str, str).describe("seat label → its (latest, non-empty) value"),
});

export const findingsRegistrySchema = z
  .object({
    reuseCandidates: z.array(registryFindingSchema),
    integrationPoints: z.array(registryFindingSchema),
    conventions: z.array(registryFindingSchema),
    dependencies: z.array(registryFindingSchema),
    gaps: z.array(registryFindingSchema),
    lowConfidence: z.array(registryFindingSchema).describe("below the relevance gate, any kind"),
    contradictions: z.array(contradictionSchema),
    metrics: z.object({
      findings: num.describe("deduped units"),
      gatedFindings: num.describe("units at or above the gate"),
      lowConfidenceFindings: num,
      agreementEligible: num.describe("gated units with agreement >= agreementMin"),
      contradictions: num,
      agreementRate: num.describe("agreementEligible / gatedFindings, 3 decimals (0 when none gated)"),
      relevanceFloor: num.describe("gatedFindings / findings, 3 decimals (0 when none)"),
      reuseCandidates: num,
      integrationPoints: num,
      conventions: num,
      dependencies: num,
      gaps: num,
    }),
    sessionId: str,
    lineageMode: str,
    generation: num,
    status: str.describe("COMPLETE | ITERATING | the config status upper-cased"),
    relevanceGate: num,
    agreementMin: num,
    executorPool: z.array(str).describe("labels of seats that succeeded at least once, sorted"),
    iterationsCompleted: num.describe("iteration records in the state log"),
    seatsByIteration: z.record(str, z.object({ succeeded: z.array(str), failed: z.array(str) })),
    graphDecision: str.nullable(),
    corruptionWarnings: z.array(z.object({ line: num, length: num, sha256: str.length(12), error: str })),
    seatValidationWarnings: z.array(z.object({ seat: str, reason: str, symbol: str, path: str, iteration: num.nullable() })),
    stateLogRepair: z.object({ repaired: z.boolean(), droppedBytes: num, reading: z.literal("corrupt_lines_kept").optional().describe("bad lines kept in a file left whole (absent: intact or torn tail)") }).strict(),
  })
  .strict()
  .describe("context/findings-registry.json");

export const reduceSummarySchema = z
  .object({
    registryPath: str,
    dashboardPath: str,
    iterationsCompleted: num,
    findings: num,
    agreementEligible: num,
    contradictions: num,
    corruptionCount: num,
    seatValidationWarnings: num,
    stateLogRepaired: z.boolean(),
    stateLogDroppedBytes: num,
    stateSafety: z.enum(["runtime", "inline"]),
    stateLogReading: z.enum(["intact", "torn_tail_repaired", "corrupt_lines_kept"]).describe("how the state log was read (not in the reference's summary)"),
  })
  .strict()
  .describe("stdout of `workbench reduce` / reduce-state.cjs");

// ---------------------------------------------------------------------------
// The runs API: wire shapes and routes

export const runRowSchema = z
  .object({
    id: z.string().describe("run id"),
    relPath: z.string().describe("the run packet's folder, relative to the project"),
    loopType: z.string().describe("context, research or review"),
    specFolder: z.string().describe("the spec folder the packet belongs to"),
    archived: z.boolean().describe("an archived packet (kept for reference)"),
    scope: z.string().nullable().describe("what the run gathers context for"),
    status: z.string().nullable().describe("the run's status, from its config or state log"),
    iterations: z.number().int().describe("iterations recorded"),
    decision: z.string().nullable().describe("the latest convergence decision"),
    stopReason: z.string().nullable().describe("why the loop stopped"),
    findings: z.number().int().nullable().describe("merged findings in the registry"),
    lastEventAt: z.string().nullable().describe("the newest state-log event (ISO-8601)"),
    executors: z.array(z.string()).describe("the run's executors: the config's pool, the seats its sweep_settled events name, and the seats with files in the packet"),
    corruptLines: z.number().int().describe("state-log lines that could not be read"),
  })
  .describe("a deep-loop run");

export const findingRowSchema = z
  .object({
    unit_id: str.describe("the merged unit's id"),
    path: str.describe("file path"),
    symbol: str.describe("symbol in the file"),
    kind: str.describe("finding kind"),
    signature: str.describe("signature as reported"),
    reuse: str.describe("how to reuse it"),
    evidence: str.describe("file:line evidence"),
    notes: str.describe("notes"),
    producedBy: z.array(str).describe("executors that reported it"),
    agreement: num.describe("how many executors agree"),
    agreementEligible: z.boolean().describe("whether it counts toward agreement"),
    relevance: num.describe("relevance, 0 to 1"),
    firstIteration: num.describe("the iteration that first reported it"),
    droppedBelowGate: num.optional().describe("only on lowConfidence entries"),
    bucket: str.describe("registry bucket"),
    contradicted: z.boolean().describe("whether executors contradict each other on it"),
  })
  .describe("a merged finding of the registry");

export const findingsPageSchema = z
  .object({
    matched: num.describe("rows matching the filters (before paging)"),
    offset: num.describe("index of the first row"),
    rows: z.array(findingRowSchema).describe("one window of rows"),
  })
  .describe("one window of a run's findings");

export const evidenceCheckSchema = z
  .object({
    status: z.enum(["verified", "stale", "missing"]).describe("verified: the cited line holds the symbol; stale: it moved or changed; missing: no such file"),
    file: str.describe("the file cited"),
    line: num.nullable().describe("the line cited"),
    lineText: str.nullable().describe("the cited line as it reads today"),
    symbolFound: z.boolean().describe("whether the symbol is in the file"),
    reason: str.describe("why, in words"),
  })
  .describe("a finding's evidence checked against the repository");

export const graphDrawingSchema = z
  .object({
    nodes: z.array(z.object({ id: str.describe("node id"), kind: str.describe("SLICE, FILE, SYMBOL, PATTERN…"), label: str.describe("label") })).describe("nodes to draw"),
    edges: z.array(z.object({ id: str.describe("edge id"), source: str.describe("from node"), target: str.describe("to node"), relation: str.describe("relation") })).describe("edges to draw"),
    truncated: z.boolean().describe("true when only the best-connected nodes are drawn"),
  })
  .describe("the coverage graph to draw");

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const assertSame = <T extends true>(_: T) => undefined;
assertSame<Same<z.infer<typeof runRowSchema>, RunRowDto>>(true);
assertSame<Same<z.infer<typeof findingsPageSchema>, FindingsPage>>(true);
assertSame<Same<z.infer<typeof evidenceCheckSchema>, EvidenceCheck>>(true);

const tag = "runs";
const runParams = projectParams.extend({ runId: pathId("run id") });
const part = opaque;

export const runRoutes = {
  list: defineRoute({
    id: "listRuns",
    method: "GET",
    path: "/api/v1/projects/{id}/runs",
    tag,
    summary: "The project's deep-loop runs",
    access: { kind: "project", role: "viewer" },
    params: projectParams,
    response: { status: 200, description: "the runs", json: z.object({ runs: z.array(runRowSchema).describe("the runs, active first, newest event first") }) },
  }),
  get: defineRoute({
    id: "getRun",
    method: "GET",
    path: "/api/v1/projects/{id}/runs/{runId}",
    tag,
    summary: "A run: convergence, host-loop replay, registry metrics, agreement, facets and the first window of findings",
    description:
      "Events, iterations and the replay come one window at a time (`events=<offset>`, `iterations=<offset>`; absent: the newest), with their totals, so a run with a huge state log still answers in a small body. The rest of the findings: `…/findings`.",
    access: { kind: "project", role: "viewer" },
    params: runParams,
    query: z
      .object({
        variant: z
          .enum(SIGNAL_VARIANTS as ["documented", "stored"])
          .default("documented")
          .describe("signal formulas: documented or stored"),
      })
      .extend(runWindowQuerySchema.shape),
    response: {
      status: 200,
      description: "the run",
      json: z.object({
        run: runRowSchema,
        version: str.describe("the packet's version when read; the live stream sends the current one"),
        view: z
          .object({
            relPath: str.describe("the run packet"),
            variant: z.enum(["documented", "stored"]).describe("which signal formulas the payload used"),
            payload: part("the convergence payload: signals, score, decision, gates"),
            findingsFacets: part("counts by bucket and kind"),
            firstFindings: findingsPageSchema,
          })
          .nullable()
          .describe("the deep-context run view (null for research and review runs)"),
        timeline: part("a deep-research or deep-review run's timeline, one window of its iterations").nullable(),
      }),
    },
  }),
  findings: defineRoute({
    id: "runFindings",
    method: "GET",
    path: "/api/v1/projects/{id}/runs/{runId}/findings",
    tag,
    summary: "One window of the run's findings, filtered and sorted",
    access: { kind: "project", role: "viewer" },
    params: runParams,
    query: findingsQuerySchema,
    response: { status: 200, description: "the window", json: findingsPageSchema },
  }),
  graph: defineRoute({
    id: "runGraph",
    method: "GET",
    path: "/api/v1/projects/{id}/runs/{runId}/graph",
    tag,
    summary: "The coverage graph to draw (at most the best-connected 600 nodes)",
    access: { kind: "project", role: "viewer" },
    params: runParams,
    response: { status: 200, description: "the drawing", json: graphDrawingSchema },
  }),
  compare: defineRoute({
    id: "compareRun",
    method: "GET",
    path: "/api/v1/projects/{id}/runs/{runId}/compare",
    tag,
    summary: "The run against a baseline: another run, or this run after iteration N",
    description: "Counts and signals come whole; each list of units comes a window at a time (`section`, `offset`, `limit`).",
    access: { kind: "project", role: "viewer" },
    params: runParams,
    query: compareQuerySchema,
    response: {
      status: 200,
      description: "the comparison",
      json: z
        .object({
          run: runRowSchema,
          baseline: part("what the run is compared with"),
        })
        .describe("findings added and dropped, agreement, relevance and bucket changes, contradictions, executors, signals, score and decision on both sides"),
    },
  }),
  stream: defineRoute({
    id: "runStream",
    method: "GET",
    path: "/api/v1/projects/{id}/runs/{runId}/stream",
    tag,
    summary: "Server-sent events while a run writes",
    description: "`ready` (with the packet's version) once watching, then `change` whenever a file of the run packet changes, and `ping` every 15 s.",
    access: { kind: "project", role: "viewer" },
    params: runParams,
    response: { status: 200, description: "an event stream", text: { "text/event-stream": "events: ready {at, version}, change {at}, ping {}" } },
  }),
  evidence: defineRoute({
    id: "checkEvidence",
    method: "GET",
    path: "/api/v1/projects/{id}/evidence",
    tag,
    summary: "Whether a finding's evidence still holds in the repository",
    access: { kind: "project", role: "viewer" },
    params: projectParams,
    query: z.object({
      path: z.string().max(2000).default("").describe("the finding's path"),
      symbol: z.string().max(500).default("").describe("the finding's symbol"),
      evidence: z.string().max(2000).default("").describe("the finding's evidence, usually file:line"),
    }),
    response: { status: 200, description: "the check", json: z.object({ check: evidenceCheckSchema }) },
  }),
};
