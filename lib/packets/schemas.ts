import { z } from "zod";
import { PACKET_MAX_CHARS, TASK_TOKENS_MAX } from "./limits";
import { defineRoute, isoTime, pathId, projectParams } from "../core/contract";
import type { PacketDto, PacketListItemDto, RevisionDto, RevisionSummaryDto } from "../db/repositories/packets";
import type { PacketDocument, PacketFinding, SeedRef, ValidationResult } from "./types";

/** Wire shapes of the packet model, for API input and output; they match ./types exactly (checked below). */

export const packetKindSchema = z.enum(["packet", "brief"]).describe("Context Packet (v2) for immediate dispatch, or Agent Brief for async handoff");

export const packetFieldSchema = z
  .object({
    key: z.string().describe('stable slug of the label ("task", "summary"…), unique in the document'),
    label: z.string().describe("the label as written, without bold markers and colon"),
    value: z.string().describe("the value, trimmed; continuation lines joined by newlines"),
  })
  .describe("a **Label**: value header line");

export const packetSectionSchema = z
  .object({
    key: z.string().describe('canonical key of a known section ("out-of-scope"), else a slug; unique in the document'),
    title: z.string().describe('heading or label as written; "" for text outside any section'),
    body: z.string().describe("the section's text, without leading and trailing blank lines"),
  })
  .describe("a ### section of a packet or a **Label:** block of a brief");

export const packetDocumentSchema = z
  .object({
    kind: packetKindSchema,
    preamble: z.string().describe("text before the ## Context Packet / ## Agent Brief heading"),
    fields: z.array(packetFieldSchema).describe("header lines, in document order"),
    sections: z.array(packetSectionSchema).describe("sections in document order, unknown ones included"),
    trailing: z.string().describe("text after the packet, from the first heading that is not one of its sections"),
  })
  .describe("a parsed packet or brief");

export const findingTierSchema = z.enum(["BLOCK", "WARN"]).describe("BLOCK stops emission (HARD-GATE); WARN is advice");

export const seedRefSchema = z
  .object({
    seed: z.literal("001").describe("the seed document: 001 is context-pack"),
    line: z.number().int().min(1).describe("1-based line in the seed"),
    part: z.string().describe('the part of the seed ("HARD-GATE", "Constraint 10", "Self-Validation"…)'),
    quote: z.string().describe("the seed's own words at that line"),
  })
  .describe("the seed line a finding's rule and tier come from");

export const packetFindingSchema = z
  .object({
    rule: z.string().describe('stable rule id, e.g. "file-line-ref"'),
    tier: findingTierSchema,
    message: z.string().describe("for users: what is wrong and what to do"),
    text: z.string().describe("the offending text exactly as in the markdown"),
    offset: z.number().int().min(0).describe("UTF-16 offset of the text in the markdown"),
    length: z.number().int().min(0).describe("UTF-16 length of the text"),
    line: z.number().int().min(1).describe("1-based line of the offset"),
    column: z.number().int().min(1).describe("1-based column of the offset, in UTF-16 units"),
    section: z.string().nullable().describe("title of the section the text is in; null outside sections"),
    suggestion: z.string().optional().describe('mechanical replacement for the text ("" deletes it); absent when none exists'),
    seedRef: seedRefSchema,
  })
  .describe("one check that failed, located in the markdown");

export const validationResultSchema = z
  .object({
    kind: packetKindSchema,
    packet: z.string().describe("the markdown validated"),
    token_estimate: z.number().int().min(0).describe("tokens of the markdown"),
    task_tokens: z.number().int().min(0).describe('the task size the Type Surface gate ("task >= 300 tokens") used'),
    task_tokens_source: z.enum(["caller", "packet"]).describe("caller: the task size given with the request; packet: none was given, so the packet's own token estimate"),
    tokenizer: z.string().describe("the tokenizer that counted them"),
    budget: z.number().int().describe("the token cap (2,000)"),
    completeness: z.enum(["full", "partial", "minimal"]).describe("how much of the needed context the packet captured"),
    warnings: z.array(z.string()).describe("missing context that could make the receiver fail, and the WARN findings as text"),
    findings: z.array(packetFindingSchema).describe("every finding, sorted by offset"),
    emittable: z.boolean().describe("false while any BLOCK finding stands"),
  })
  .describe("the validator's result: the seed's {packet, token_estimate, completeness, warnings} plus findings");

/** The delegated task's size, as the caller knows it; shared by the validate, save and create inputs. */
export const taskTokensInput = z
  .number()
  .int()
  .min(0)
  .max(TASK_TOKENS_MAX)
  .nullable()
  .optional()
  .describe('size of the delegated task in tokens, for the Type Surface gate ("task >= 300 tokens"); null or absent: the packet\'s own token estimate is used');

export const validatePacketInput = z.object({
  markdown: z
    .string()
    .max(PACKET_MAX_CHARS, `at most ${PACKET_MAX_CHARS.toLocaleString("en")} characters`)
    .describe("the packet's or brief's markdown"),
  taskTokens: taskTokensInput,
});

/** Larger than any packet worth handing off (the cap is 2,000 tokens); refuses pasted files. */
export const MAX_PACKET_CHARS = 200_000;

const markdown = z.string().max(MAX_PACKET_CHARS, `at most ${MAX_PACKET_CHARS.toLocaleString("en")} characters`);
const author = z.string().trim().max(80).nullable().default(null).describe("display name of whoever saves");

export const newPacketInput = z.object({
  kind: z.enum(["packet", "brief"]).default("packet").describe("Context Packet (v2) or Agent Brief"),
  title: z.string().trim().min(1).max(200).optional().describe("title shown in lists; defaults to the Task / Summary line"),
  topicSlug: z.string().trim().min(1).max(200).nullable().default(null).describe("topic this packet belongs to"),
  markdown: markdown.optional().describe("initial markdown (an imported .md file); the kind's template when absent"),
  taskTokens: taskTokensInput,
  author,
});
export type NewPacketInput = z.input<typeof newPacketInput>;

export const saveInput = z.object({
  markdown: markdown.describe("the packet's full markdown"),
  baseNumber: z.number().int().min(1).optional().describe("revision the edit started from (conflict check); omitted when saving the shared co-editing text, which has no competing copy"),
  note: z.string().trim().max(200).nullable().default(null).describe("what changed"),
  taskTokens: taskTokensInput.describe(
    'size of the delegated task in tokens, saved with the revision and used by the Type Surface gate ("task >= 300 tokens"); null: use the packet\'s own token estimate; absent: keep the size of the revision saved before',
  ),
  author,
});

export const metaInput = z.object({
  title: z.string().trim().min(1).max(200).optional().describe("new title"),
  topicSlug: z.string().trim().min(1).max(200).nullable().optional().describe("link to a topic, or null to unlink"),
  archived: z.boolean().optional().describe("archive or restore"),
});

// The schemas and the interfaces must not drift apart.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const assertSame = <T extends true>(_: T) => undefined;
assertSame<Same<z.infer<typeof packetDocumentSchema>, PacketDocument>>(true);
assertSame<Same<z.infer<typeof packetFindingSchema>, PacketFinding>>(true);
assertSame<Same<z.infer<typeof seedRefSchema>, SeedRef>>(true);
assertSame<Same<z.infer<typeof validationResultSchema>, ValidationResult>>(true);

// ---------------------------------------------------------------------------
// Wire shapes of stored packets

/** Which agent (MCP caller) made a change; both null when a person made it. */
export const agentStampShape = {
  agentTokenId: z.string().nullable().describe("the personal access token the agent called MCP with; null for a person, or for the stdio server"),
  agentName: z.string().nullable().describe('the agent: its token\'s name, "stdio agent" for `workbench mcp`, or "local agent (HTTP)" for /api/v1/mcp in local mode; null when a person made the change'),
};

const revisionCheckShape = {
  tokenEstimate: z.number().int().describe("tokens of the revision's markdown"),
  completeness: z.string().describe("full, partial or minimal"),
  blockCount: z.number().int().describe("BLOCK findings"),
  warnCount: z.number().int().describe("WARN findings"),
};

export const packetListItemSchema = z
  .object({
    id: z.string().describe("packet id"),
    emittedNumber: z.number().int().nullable().describe("the revision handed off to agents, if any"),
    reviewStatus: z.string().describe("draft, in_review, changes_requested or approved"),
    approvedNumber: z.number().int().nullable().describe("the revision the last approval froze"),
    emittedAt: isoTime("when it was handed off").nullable(),
    kind: packetKindSchema,
    title: z.string().describe("title shown in lists"),
    topicSlug: z.string().nullable().describe("the topic it belongs to"),
    archived: z.boolean().describe("archived packets are listed only on request"),
    headNumber: z.number().int().describe("the latest revision"),
    updatedAt: isoTime("last change"),
    head: z.object(revisionCheckShape).nullable().describe("what validation said of the latest revision"),
    taskTokens: z.number().int().nullable().describe("the task size the latest revision was checked with; null: the packet's own estimate"),
  })
  .describe("a packet or brief in a list");

export const packetSchema = packetListItemSchema
  .extend({
    projectId: z.string().describe("project id"),
    createdAt: isoTime("when it was created"),
    markdown: z.string().describe("the latest revision's markdown"),
  })
  .describe("a packet or brief");

export const revisionSummarySchema = z
  .object({
    ...revisionCheckShape,
    number: z.number().int().describe("revision number, from 1"),
    taskTokens: z.number().int().nullable().describe("the task size saved with this revision; null: none was given"),
    author: z.string().nullable().describe("who saved it"),
    note: z.string().nullable().describe("what changed"),
    ...agentStampShape,
    createdAt: isoTime("when it was saved"),
  })
  .describe("a revision, without its text");

export const revisionSchema = revisionSummarySchema.extend({ markdown: z.string().describe("the revision's markdown") }).describe("a revision");

export const revisionDiffSchema = z
  .object({
    from: z.number().int().describe("older revision"),
    to: z.number().int().describe("newer revision"),
    hunks: z
      .array(
        z.object({
          oldStart: z.number().int().describe("first line in the older revision"),
          oldLines: z.number().int().describe("lines of the older revision"),
          newStart: z.number().int().describe("first line in the newer revision"),
          newLines: z.number().int().describe("lines of the newer revision"),
          lines: z.array(z.string()).describe("unified diff lines, each starting with ' ', '+' or '-'"),
        }),
      )
      .describe("the changed stretches"),
    added: z.number().int().describe("lines added"),
    removed: z.number().int().describe("lines removed"),
  })
  .describe("a unified diff between two revisions");

/** A packet as the API sends it (the same as the repository's PacketDto, checked above). */
export type PacketWire = z.infer<typeof packetSchema>;

assertSame<Same<z.infer<typeof packetListItemSchema>, PacketListItemDto>>(true);
assertSame<Same<z.infer<typeof packetSchema>, PacketDto>>(true);
assertSame<Same<z.infer<typeof revisionSummarySchema>, RevisionSummaryDto>>(true);
assertSame<Same<z.infer<typeof revisionSchema>, RevisionDto>>(true);

// ---------------------------------------------------------------------------
// Routes

const tag = "packets";
export const packetParams = projectParams.extend({ packetId: pathId("packet id") });
const packetOut = z.object({ packet: packetSchema });
const savedOut = z.object({ packet: packetSchema, validation: validationResultSchema });

export const packetRoutes = {
  list: defineRoute({
    id: "listPackets",
    method: "GET",
    path: "/api/v1/projects/{id}/packets",
    tag,
    summary: "The project's packets and briefs",
    access: { kind: "project", role: "viewer" },
    params: projectParams,
    query: z.object({ archived: z.enum(["0", "1"]).default("0").describe("1 lists archived packets") }),
    response: { status: 200, description: "the packets", json: z.object({ packets: z.array(packetListItemSchema).describe("the packets and briefs") }) },
  }),
  create: defineRoute({
    id: "createPacket",
    method: "POST",
    path: "/api/v1/projects/{id}/packets",
    tag,
    summary: "New packet or brief, from the kind's template or from imported markdown",
    access: { kind: "project", role: "editor" },
    params: projectParams,
    body: newPacketInput,
    response: { status: 201, description: "the packet", json: packetOut },
  }),
  get: defineRoute({
    id: "getPacket",
    method: "GET",
    path: "/api/v1/projects/{id}/packets/{packetId}",
    tag,
    summary: "A packet with its latest markdown",
    access: { kind: "project", role: "viewer" },
    params: packetParams,
    response: { status: 200, description: "the packet", json: packetOut },
  }),
  update: defineRoute({
    id: "updatePacket",
    method: "PATCH",
    path: "/api/v1/projects/{id}/packets/{packetId}",
    tag,
    summary: "Title, topic link, archive / restore",
    access: { kind: "project", role: "editor" },
    params: packetParams,
    body: metaInput,
    response: { status: 200, description: "the packet", json: packetOut },
  }),
  revisions: defineRoute({
    id: "listRevisions",
    method: "GET",
    path: "/api/v1/projects/{id}/packets/{packetId}/revisions",
    tag,
    summary: "Every saved revision, newest first",
    access: { kind: "project", role: "viewer" },
    params: packetParams,
    response: { status: 200, description: "the revisions", json: z.object({ revisions: z.array(revisionSummarySchema).describe("the revisions, newest first") }) },
  }),
  save: defineRoute({
    id: "saveRevision",
    method: "POST",
    path: "/api/v1/projects/{id}/packets/{packetId}/revisions",
    tag,
    summary: "Save a revision",
    description: "Every save is a revision, validated on the server; 409 when someone saved since `baseNumber`.",
    access: { kind: "project", role: "editor" },
    params: packetParams,
    body: saveInput,
    response: { status: 201, description: "the packet and what validation said", json: savedOut },
    errors: ["CONFLICT"],
  }),
  revision: defineRoute({
    id: "getRevision",
    method: "GET",
    path: "/api/v1/projects/{id}/packets/{packetId}/revisions/{number}",
    tag,
    summary: "One revision with its markdown",
    access: { kind: "project", role: "viewer" },
    params: packetParams.extend({ number: z.coerce.number().int().min(1).describe("revision number") }),
    response: { status: 200, description: "the revision", json: z.object({ revision: revisionSchema }) },
  }),
  diff: defineRoute({
    id: "diffRevisions",
    method: "GET",
    path: "/api/v1/projects/{id}/packets/{packetId}/diff",
    tag,
    summary: "A unified diff (hunks) between two revisions",
    access: { kind: "project", role: "viewer" },
    params: packetParams,
    query: z.object({ from: z.coerce.number().int().min(1).describe("older revision"), to: z.coerce.number().int().min(1).describe("newer revision") }),
    response: { status: 200, description: "the diff", json: z.object({ diff: revisionDiffSchema }) },
  }),
  duplicate: defineRoute({
    id: "duplicatePacket",
    method: "POST",
    path: "/api/v1/projects/{id}/packets/{packetId}/duplicate",
    tag,
    summary: "Copy a packet's latest revision into a new packet",
    access: { kind: "project", role: "editor" },
    params: packetParams,
    body: z.object({ author: z.string().trim().max(80).nullable().default(null).describe("display name of whoever duplicates") }),
    response: { status: 201, description: "the new packet", json: packetOut },
  }),
  emit: defineRoute({
    id: "emitPacket",
    method: "POST",
    path: "/api/v1/projects/{id}/packets/{packetId}/emit",
    tag,
    summary: "Hand the approved revision off",
    description: "Emits the revision approved in review: from then on the handoff URL (`GET /api/v1/packets/{packetId}`) serves it. 422 while a BLOCK finding stands in it, or before any revision is approved.",
    access: { kind: "project", role: "editor" },
    params: packetParams,
    response: { status: 200, description: "the packet and what validation said", json: savedOut },
    errors: ["GATE_REFUSED"],
  }),
  handoff: defineRoute({
    id: "handoffPacket",
    method: "GET",
    path: "/api/v1/packets/{packetId}",
    tag,
    summary: "The handoff URL for the receiving agent",
    description:
      "The emitted revision of the packet, as markdown or as the seed's result object (`?format=json`, or `Accept: application/json` for clients that negotiate instead). A packet is handed off here once an editor emits it (`POST /api/v1/projects/{id}/packets/{packetId}/emit`), which needs a revision approved in review without BLOCK findings; approval alone does not emit it. A packet that exists but was never emitted answers 409 NOT_EMITTED, whose message gives its review status, its latest and approved revisions and what to do next; 404 means no such packet (or one you may not see).",
    access: { kind: "signed-in" },
    params: z.object({ packetId: pathId("packet id") }),
    query: z.object({
      format: z
        .enum(["md", "json"])
        .optional()
        .describe("md: the packet's markdown; json: the seed's {packet, token_estimate, completeness, warnings}; absent: the Accept header decides (markdown unless it prefers application/json)"),
    }),
    response: {
      status: 200,
      description: "the emitted revision",
      json: validationResultSchema.pick({ packet: true, token_estimate: true, completeness: true, warnings: true }).extend({
        kind: packetKindSchema,
        revision: z.number().int().describe("the emitted revision"),
        title: z.string().describe("the packet's title"),
      }),
      text: { "text/markdown": "the emitted revision's markdown (the default)" },
      headers: { "x-packet-revision": "the emitted revision number", vary: "accept" },
    },
    errors: ["NOT_FOUND", "NOT_EMITTED"],
  }),
  validate: defineRoute({
    id: "validatePacket",
    method: "POST",
    path: "/api/v1/packets/validate",
    tag,
    summary: "The context-pack checks on markdown that is not stored",
    description: "The same result as `workbench pack validate --json` and the MCP tool `validate_packet`. It reads no project, so any signed-in caller may use it.",
    access: { kind: "signed-in" },
    body: validatePacketInput,
    response: { status: 200, description: "the validator's result", json: validationResultSchema },
  }),
};
