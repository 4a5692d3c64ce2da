import { z } from "zod";
import { defineRoute, opaque, projectParams } from "../core/contract";
import type { TopicRowDto } from "../db/dto";
import { topicFilterSchema } from "../db/repositories/topic-pages";
import { SOURCE_KINDS } from "./types";

// Every field is optional: real files from the load-context family vary by version,
// and the indexer drops (and names) a malformed field rather than the whole file.

const str = z.string();
const statusLike = z.string().describe("pending | in_progress | completed, or another status word");

export const sessionUpdateSchema = z.object({
  timestamp: str.optional().describe("when the note was recorded (ISO-8601)"),
  note: str.describe("the note text; auto-context entries start with [auto]"),
  auto: z.boolean().optional().describe("true for entries written by the auto-context hook"),
});

const branchesSchema = z
  .object({
    base: str.optional().describe("the branch work started from"),
    feature: str.optional().describe("the feature branch, feature/{id}"),
    remote_pushed: z.boolean().optional().describe("whether the feature branch was pushed"),
  })
  .loose();

export const workStateSchema = z
  .object({
    schema_version: z.number().optional().describe("1 for every known layout"),
    identifier: str.optional().describe("the work id, same as the folder name"),
    type: str.optional().describe("requirements | implementation | brainstorm | proposal | epic"),
    status: statusLike.optional().describe("in_progress | completed"),
    title: str.optional().describe("human title"),
    current_phase: str.optional().describe("phase name, when the session records one"),
    created_at: str.optional().describe("ISO-8601"),
    started_at: str.optional().describe("ISO-8601 (implementation)"),
    updated_at: str.optional().describe("ISO-8601"),
    completed_at: str.optional().nullable().describe("ISO-8601 (implementation)"),
    selected_approach: str.optional().nullable().describe("brainstorm sessions: the chosen approach"),
    branches: branchesSchema.optional().describe("requirements sessions' branches"),
    requirements: z
      .object({ branches: branchesSchema.optional(), original: z.unknown().optional(), refined: z.unknown().optional() })
      .loose()
      .optional()
      .describe("requirements text, or the branches for implementation sessions"),
    brainstorm: z
      .object({ promoted_from: str.nullable().optional().describe("brainstorm slug this work came from"), has_context: z.boolean().optional() })
      .loose()
      .optional()
      .describe("link to the brainstorm this work was promoted from"),
    phases: z.record(str, z.unknown()).optional().describe("phase name to {status, ...}"),
    stages: z.record(str, z.unknown()).optional().describe("requirements stages"),
    plan: z
      .object({
        chunks: z
          .array(
            z
              .object({
                id: z.union([str, z.number()]).optional(),
                description: str.optional(),
                status: str.optional(),
                files: z.array(str).optional(),
              })
              .loose(),
          )
          .optional(),
      })
      .loose()
      .optional()
      .describe("implementation plan"),
    implemented_files: z.array(str).optional().describe("files the implementation touched"),
    updates: z.array(sessionUpdateSchema).optional().describe("session notes, newest last"),
    outputs: z.record(str, z.unknown()).optional().describe("output file locations"),
  })
  .loose();
export type WorkState = z.output<typeof workStateSchema>;

export const manifestEnvelopeSchema = z
  .object({
    version: str.optional().describe("manifest version, 1.0"),
    last_updated: str.optional().describe("ISO-8601"),
    artifact_type: str.optional().describe("work | brainstorms | proposals | refactoring | product-knowledge"),
    total_items: z.number().optional(),
    items: z.array(z.record(str, z.unknown())).describe("one object per artifact"),
  })
  .loose();

const optStr = str.nullable().optional();
const tags = z.array(str).optional().describe("free tags");

export const workItemSchema = z
  .object({
    identifier: str.describe("the work id (manifest key)"),
    title: optStr,
    type: optStr.describe("requirements | implementation | proposal | epic | brainstorm (legacy)"),
    status: optStr,
    created_at: optStr,
    updated_at: optStr,
    current_phase: optStr,
    progress: optStr.describe("e.g. 2/3 chunks"),
    branch: optStr,
    tags,
    path: optStr,
  })
  .loose();

export const brainstormItemSchema = z
  .object({
    slug: str.describe("the brainstorm slug (manifest key)"),
    title: optStr,
    status: optStr.describe("in_progress | completed | promoted"),
    created_at: optStr,
    updated_at: optStr,
    current_phase: optStr,
    selected_approach: optStr,
    alternatives_count: z.number().nullable().optional(),
    promoted_to: optStr,
    tags,
    path: optStr,
  })
  .loose();

export const proposalItemSchema = z
  .object({
    name: str.describe("the proposal name (manifest key)"),
    title: optStr,
    status: optStr.describe("draft | final | implemented"),
    created_at: optStr,
    updated_at: optStr,
    iterations: z.number().nullable().optional(),
    tags,
    path: optStr,
  })
  .loose();

export const refactoringItemSchema = z
  .object({
    session_name: str.describe("the refactoring session name (manifest key)"),
    title: optStr,
    status: optStr.describe("in_progress | completed | paused"),
    created_at: optStr,
    updated_at: optStr,
    files_affected: z
      .union([z.number(), z.array(str)])
      .nullable()
      .optional(),
    progress: optStr.describe("e.g. 3/7"),
    tags,
    path: optStr,
  })
  .loose();

export const requirementsIndexSchema = z
  .object({
    version: str.optional(),
    last_updated: str.optional(),
    tickets: z
      .array(
        z
          .object({
            id: str.describe("ticket id"),
            title: optStr,
            description: optStr,
            status: optStr,
            project: optStr,
            date: optStr,
            tags,
            components: z.array(str).optional(),
            apis: z.array(str).optional(),
            path: optStr,
            archived: z.boolean().optional(),
          })
          .loose(),
      )
      .describe("archived requirement tickets"),
  })
  .loose();
export type RequirementTicket = z.output<typeof requirementsIndexSchema>["tickets"][number];

export const productManifestItemSchema = z
  .object({
    path: str.describe("document path inside the product-knowledge folder"),
    title: optStr,
    category: optStr,
    tags,
    summary: optStr,
  })
  .loose();

// ---------------------------------------------------------------------------
// The inventory API (load-context): the topic inventory and loaded context

export const topicRowSchema = z
  .object({
    slug: str.describe("the topic's identifier (folder or manifest name)"),
    title: str.nullable().describe("human title"),
    status: str.nullable().describe("status word"),
    type: str.nullable().describe("work type"),
    updatedAt: str.nullable().describe("last update (ISO-8601)"),
    sources: z.array(z.enum(SOURCE_KINDS)).describe("where the topic appears: work, brainstorm, proposal, refactoring…"),
  })
  .describe("one row of the topic inventory");

type SameRow = [z.infer<typeof topicRowSchema>] extends [TopicRowDto] ? ([TopicRowDto] extends [z.infer<typeof topicRowSchema>] ? true : false) : false;
const sameRow: SameRow = true;
void sameRow;

export const inventoryRoutes = {
  topics: defineRoute({
    id: "listTopics",
    method: "GET",
    path: "/api/v1/projects/{id}/topics",
    tag: "inventory",
    summary: "The topic inventory, most recently updated first, filtered and paginated",
    access: { kind: "project", role: "viewer" },
    params: projectParams,
    query: topicFilterSchema,
    response: {
      status: 200,
      description: "one page of topics",
      json: z.object({
        rows: z.array(topicRowSchema).describe("the page's topics"),
        total: z.number().int().describe("topics matching the filter"),
        statuses: z.array(str).describe("every status in the inventory, for a filter"),
        page: z.number().int().describe("1-based page"),
        pageSize: z.number().int().describe("rows per page"),
      }),
    },
  }),
  loadContext: defineRoute({
    id: "loadContext",
    method: "GET",
    path: "/api/v1/projects/{id}/load-context",
    tag: "inventory",
    summary: "load-context: the seed's markdown and the structured result behind it",
    description: "Without `q`, the inventory. With `format=markdown`, the seed's text output exactly.",
    access: { kind: "project", role: "viewer" },
    params: projectParams,
    query: z.object({
      q: z.string().max(500).optional().describe("identifier or free-text query; absent for the inventory"),
      format: z.enum(["json", "markdown"]).default("json").describe("markdown returns the seed's text output as text/markdown"),
    }),
    response: {
      status: 200,
      description: "the loaded context",
      json: z
        .object({
          markdown: str.describe("the seed's Output Format"),
          topics: z.array(topicRowSchema).optional().describe("without q: every topic"),
          result: opaque("with q: exact matches, fuzzy fallback, session updates, prior art, handoff options").optional(),
        })
        .describe("the markdown and, as JSON, the topics (inventory) or the result (a query)"),
      text: { "text/markdown": "the seed's markdown (format=markdown)" },
    },
  }),
};
