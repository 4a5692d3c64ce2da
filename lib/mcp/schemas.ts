/**
 * Input and output shapes of the MCP tools. Inputs reuse the schemas the API and the CLI
 * already validate with (`loaderInput`, `validatePacketInput`, `searchQuerySchema`); only
 * what no caller had before (a project given by id or path, a run to converge) is new here.
 */
import { z } from "zod";
import { SIGNAL_VARIANTS } from "../deep-context/convergence";
import { loaderInput } from "../moc/service";
import { validatePacketInput, validationResultSchema } from "../packets/schemas";
import { SEARCH_KINDS, searchQuerySchema, type SearchHit, type SearchResult } from "../search/schemas";

export const projectRefSchema = z
  .string()
  .trim()
  .min(1, "give a project id or the path of its folder")
  .max(4096)
  .describe("the project: its id in the Workbench database (used as indexed), or the absolute path of its folder (registered and re-indexed incrementally first, as `workbench load-context --project <path>` does)");

export const loadContextToolInput = {
  project: projectRefSchema,
  query: z.string().max(500).optional().describe("identifier (JIRA-123, a slug, feature/JIRA-123) or free text; omit it for the topic inventory"),
};

export const contextLoaderPackToolInput = {
  project: projectRefSchema.describe("the project whose docs/ is walked: its id in the Workbench database, or the path of its folder"),
  ...loaderInput.shape,
};

export const validatePacketToolInput = validatePacketInput.shape;
export const validatePacketToolOutput = validationResultSchema;

const variantSchema = z
  .enum(SIGNAL_VARIANTS as ["documented", "stored"])
  .default("documented")
  .describe("signal formulas: documented (references and tests) or stored (signals.ts@cc68d45)");

export const runConvergenceToolInput = {
  specFolder: z
    .string()
    .trim()
    .min(1)
    .max(4096)
    .optional()
    .describe("a spec folder (its context/ packet is used) or the packet folder itself, as `workbench converge <spec-folder>` takes it; or give project and runId instead"),
  project: projectRefSchema.optional().describe("with runId: the indexed project the run belongs to (id or folder path)"),
  runId: z.string().trim().min(1).max(64).optional().describe("with project: a deep-context run's id, as listed by GET /api/v1/projects/:id/runs"),
  variant: variantSchema,
};

/** What `workbench converge --json` prints: the convergence payload, the graph's origin, the host-loop replay and warnings. */
export const runConvergenceToolOutput = z
  .object({
    status: z.literal("ok").describe("always ok; failures are tool errors"),
    data: z
      .object({
        decision: z.enum(["CONTINUE", "STOP_ALLOWED", "STOP_BLOCKED"]).describe("the graph's decision"),
        reason: z.string().describe("why, in words"),
        score: z.number().describe("the composite convergence score"),
        blockers: z.array(z.object({ type: z.string(), severity: z.string(), count: z.number(), description: z.string() }).loose()).describe("what blocks STOP"),
      })
      .loose()
      .describe("signals, trace, score, decision and blockers"),
    graph_origin: z.string().describe("stored (coverage-graph.json) or derived (from seat files and deltas)"),
    replay: z.object({}).loose().nullable().describe("the host loop's stop rules replayed over the state log; null without a log"),
    warnings: z.array(z.string()).describe("files or lines that were skipped, and why"),
  })
  .loose();

export const searchToolInput = searchQuerySchema.shape;

const searchFacetSchema = z.object({ value: z.string(), label: z.string(), count: z.number().int() }).describe("one facet value and its hit count");

const searchHitSchema = z
  .object({
    projectId: z.string().describe("the project's id"),
    projectName: z.string().describe("the project's name"),
    kind: z.enum(SEARCH_KINDS).describe("what the entry is"),
    ref: z.string().describe("the entry's key within its project and kind"),
    title: z.string().describe("the entry's title"),
    snippet: z.string().describe("excerpt around the match; matched words between U+E000 and U+E001"),
    status: z.string().nullable().describe("the entry's status, when it has one"),
    date: z.string().nullable().describe("ISO date, when the entry has one"),
    href: z.string().describe("the Workbench page that shows the entry"),
    score: z.number().describe("engine rank, higher is better"),
  })
  .describe("one search hit");

export const searchToolOutput = z.object({
  query: z.object({}).loose().describe("the query as understood"),
  total: z.number().int().describe("every entry that matches, before limit"),
  hits: z.array(searchHitSchema).describe("the best hits, best first"),
  facets: z
    .object({ project: z.array(searchFacetSchema), kind: z.array(searchFacetSchema), status: z.array(searchFacetSchema), year: z.array(searchFacetSchema) })
    .describe("hit counts by project, kind, status and year"),
  engine: z.enum(["sqlite-fts5", "postgres-tsvector"]).describe("which database index answered"),
  tookMs: z.number().describe("time the search took"),
  matched: z.enum(["all", "any"]).optional().describe("any when no entry had every word and the hits match some of them"),
});

// The output schema must not drift from the search contract.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const assertSame = <T extends true>(_: T) => undefined;
assertSame<Same<z.infer<typeof searchHitSchema>, SearchHit>>(true);
assertSame<Same<Omit<z.infer<typeof searchToolOutput>, "query">, Omit<SearchResult, "query">>>(true);

/** What `workbench policy evaluate --json` prints, parsed, plus its exact text and exit code. */
const decisionFields = {
  exit_code: z.union([z.literal(0), z.literal(3), z.literal(4)]).describe("policy evaluate's exit code: 0 continue, 3 checkpoint, 4 stop"),
  decision_json: z.string().describe("the decision exactly as `workbench policy evaluate --json` (and `agent-collab policy evaluate --json`) prints it"),
  decision: z.record(z.string(), z.unknown()).describe("the same decision as an object: a PolicyDecision v1, a GoalDecision v2 (scope, auto_continue, goal totals) or the fail-closed v1 envelope"),
};

export const evaluatePolicyToolInput = {
  policy_json: z.string().min(2).max(1_000_000).describe("the policy file's JSON text (v1, portable v1 or goal policy v2), read with the harness's strict rules"),
  checkpoint_json: z.string().min(2).max(1_000_000).describe("the checkpoint file's JSON text (TaskCheckpoint v1 or GoalCheckpoint v2)"),
  policy_name: z.string().max(255).default("policy.json").describe("the policy file's name: a fail-closed result is named after it, as the CLI names it after --policy"),
};
export const evaluatePolicyToolOutput = z.object(decisionFields);

export const taskDecisionsToolInput = {
  project: projectRefSchema,
  task_id: z.string().trim().min(1).max(200).optional().describe("only this task's checkpoint files; omit for every checkpoint in .coord/"),
};
export const taskDecisionsToolOutput = z.object({
  tasks: z
    .array(
      z.object({
        file: z.string().describe("the checkpoint file, project-relative"),
        task_id: z.string().describe("its task id"),
        version: z.union([z.literal(1), z.literal(2)]).describe("1: TaskCheckpoint v1; 2: GoalCheckpoint v2"),
        policy_file: z.string().nullable().describe("the policy file it was evaluated against"),
        ...decisionFields,
        reasons_in_words: z.array(z.string()).describe("each reason explained, in the order of decision.reasons"),
      }),
    )
    .describe("each checkpoint, evaluated as the task page and GET /api/v1/projects/:id/tasks evaluate it"),
});
