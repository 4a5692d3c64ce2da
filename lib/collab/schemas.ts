/**
 * The review API of a packet: status transitions, comment threads, named snapshots and the
 * review history. Pure (zod only): the browser's API client imports it.
 */
import { z } from "zod";
import { defineRoute, isoTime, pathId, projectParams } from "../core/contract";
import { AGENT_ACTIONS, type AgentActivityDto } from "../db/dto";
import type { CommentDto, ReviewEventDto, SnapshotDto } from "../db/repositories/collab";
import { agentStampShape, packetParams, packetSchema } from "../packets/schemas";
import { REVIEW_ACTIONS } from "./review";

const actor = z.string().trim().min(1, "a display name is required").max(80).describe("display name of whoever acts");

export const reviewActionInput = z
  .object({
    action: z.enum(REVIEW_ACTIONS).describe("request_review, approve, request_changes or withdraw"),
    actor,
    note: z.string().trim().max(2000).nullable().default(null).describe("why, shown in the history"),
    revision: z.number().int().min(1).nullable().default(null).describe("the revision the reviewer read; approve and request_changes need it, and it must still be the latest"),
  })
  .refine((r) => !(r.action === "approve" || r.action === "request_changes") || r.revision !== null, {
    message: "approve and request_changes name the revision they are about",
    path: ["revision"],
  });

export const commentInput = z
  .object({
    threadId: z.string().min(1).max(64).nullable().default(null).describe("reply to this thread; null starts a thread"),
    section: z.string().max(200).nullable().default(null).describe("section title the comment is about"),
    quote: z.string().max(2000).nullable().default(null).describe("the text range the comment is about"),
    anchorFrom: z.number().int().min(0).nullable().default(null).describe("UTF-16 offset where the quoted range started"),
    anchorTo: z.number().int().min(0).nullable().default(null).describe("UTF-16 offset where it ended"),
    anchorStart: z
      .string()
      .regex(/^[A-Za-z0-9+/=]{1,200}$/, "not a base64 anchor")
      .nullable()
      .default(null)
      .describe("base64 Yjs relative position where the quoted range starts in the shared document"),
    anchorEnd: z
      .string()
      .regex(/^[A-Za-z0-9+/=]{1,200}$/, "not a base64 anchor")
      .nullable()
      .default(null)
      .describe("base64 Yjs relative position where it ends"),
    body: z.string().trim().min(1, "the comment is empty").max(10_000).describe("the comment"),
    author: actor,
  })
  .refine((c) => c.threadId !== null || c.section !== null || c.quote !== null, { message: "a new thread needs a section or a quoted text range", path: ["section"] })
  .refine((c) => c.anchorFrom === null || c.anchorTo === null || c.anchorTo >= c.anchorFrom, { message: "anchorTo is before anchorFrom", path: ["anchorTo"] });

export const resolveInput = z.object({ resolved: z.boolean().describe("resolve or reopen"), actor });

export const snapshotInput = z.object({
  name: z.string().trim().min(1, "a snapshot needs a name").max(120).describe("name of the snapshot"),
  markdown: z.string().max(200_000).describe("the text to keep"),
  author: z.string().trim().max(80).nullable().default(null).describe("who took it"),
});

export const commentSchema = z
  .object({
    id: z.string().describe("comment id"),
    threadId: z.string().describe("the thread: the id of its first comment"),
    section: z.string().nullable().describe("section title the thread is about"),
    quote: z.string().nullable().describe("the quoted text range the thread is about"),
    anchorFrom: z.number().int().nullable().describe("UTF-16 offset where the quote started"),
    anchorTo: z.number().int().nullable().describe("UTF-16 offset where it ended"),
    anchorStart: z.string().nullable().describe("base64 Yjs relative position of the quote's start"),
    anchorEnd: z.string().nullable().describe("base64 Yjs relative position of its end"),
    body: z.string().describe("the comment"),
    author: z.string().describe("who wrote it"),
    resolved: z.boolean().describe("whether the thread is resolved"),
    resolvedBy: z.string().nullable().describe("who resolved it"),
    resolvedAt: isoTime("when it was resolved").nullable(),
    createdAt: isoTime("when it was written"),
  })
  .describe("a comment");

export const reviewEventSchema = z
  .object({
    id: z.string().describe("event id"),
    fromStatus: z.string().describe("status before"),
    toStatus: z.string().describe("status after"),
    actor: z.string().describe("who acted"),
    revision: z.number().int().describe("the revision it was about"),
    note: z.string().nullable().describe("why"),
    ...agentStampShape,
    createdAt: isoTime("when"),
  })
  .describe("a review status change");

export const snapshotSchema = z
  .object({
    id: z.string().describe("snapshot id"),
    name: z.string().describe("its name"),
    markdown: z.string().describe("the text kept"),
    author: z.string().nullable().describe("who took it"),
    createdAt: isoTime("when it was taken"),
  })
  .describe("a named snapshot of the shared text");

export const reviewHistorySchema = z
  .object({
    packet: z
      .object({
        id: z.string().describe("packet id"),
        title: z.string().describe("title"),
        kind: z.string().describe("packet or brief"),
        reviewStatus: z.string().describe("draft, in_review, changes_requested or approved"),
        approvedNumber: z.number().int().nullable().describe("the revision the last approval froze"),
        headNumber: z.number().int().describe("the latest revision"),
      })
      .describe("the packet and its review status"),
    events: z.array(reviewEventSchema).describe("status changes, oldest first"),
    threads: z
      .array(
        z.object({
          id: z.string().describe("thread id"),
          section: z.string().nullable().describe("section the thread is about"),
          quote: z.string().nullable().describe("quoted text the thread is about"),
          resolved: z.boolean().describe("resolved or open"),
          resolvedBy: z.string().nullable().describe("who resolved it"),
          resolvedAt: isoTime("when").nullable(),
          comments: z.array(z.object({ author: z.string().describe("who"), body: z.string().describe("the comment"), createdAt: isoTime("when") })).describe("the thread's comments, oldest first"),
        }),
      )
      .describe("comment threads"),
  })
  .describe("the review history");

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const assertSame = <T extends true>(_: T) => undefined;
assertSame<Same<z.infer<typeof commentSchema>, CommentDto>>(true);
assertSame<Same<z.infer<typeof reviewEventSchema>, ReviewEventDto>>(true);
assertSame<Same<z.infer<typeof snapshotSchema>, SnapshotDto>>(true);

const tag = "review";

export const reviewRoutes = {
  comments: defineRoute({
    id: "listComments",
    method: "GET",
    path: "/api/v1/projects/{id}/packets/{packetId}/comments",
    tag,
    summary: "Every comment on the packet, oldest first",
    access: { kind: "project", role: "viewer" },
    params: packetParams,
    response: { status: 200, description: "the comments", json: z.object({ comments: z.array(commentSchema).describe("every comment, oldest first") }) },
  }),
  comment: defineRoute({
    id: "addComment",
    method: "POST",
    path: "/api/v1/projects/{id}/packets/{packetId}/comments",
    tag,
    summary: "A new thread (anchored to a section or a quoted range) or a reply",
    description: "Team mode: the author is the signed-in account, whatever the body says.",
    access: { kind: "project", role: "editor" },
    params: packetParams,
    body: commentInput,
    response: { status: 201, description: "the comment", json: z.object({ comment: commentSchema }) },
  }),
  resolve: defineRoute({
    id: "resolveThread",
    method: "POST",
    path: "/api/v1/projects/{id}/packets/{packetId}/comments/{threadId}/resolve",
    tag,
    summary: "Resolve or reopen a comment thread",
    access: { kind: "project", role: "editor" },
    params: packetParams.extend({ threadId: pathId("thread id") }),
    body: resolveInput,
    response: { status: 200, description: "every comment on the packet", json: z.object({ comments: z.array(commentSchema).describe("every comment, oldest first") }) },
  }),
  history: defineRoute({
    id: "reviewHistory",
    method: "GET",
    path: "/api/v1/projects/{id}/packets/{packetId}/review",
    tag,
    summary: "Review status, status changes and comment threads",
    access: { kind: "project", role: "viewer" },
    params: packetParams,
    response: { status: 200, description: "the review history", json: reviewHistorySchema },
  }),
  act: defineRoute({
    id: "reviewPacket",
    method: "POST",
    path: "/api/v1/projects/{id}/packets/{packetId}/review",
    tag,
    summary: "A review transition: request_review, approve, request_changes, withdraw",
    description:
      "409 when not allowed from the current status, or when a newer revision was saved. Editors send for review and withdraw; approving or asking for changes is a reviewer's call, so it needs the approver role.",
    access: { kind: "project", role: "editor" },
    params: packetParams,
    body: reviewActionInput,
    response: { status: 200, description: "the packet and its status changes", json: z.object({ packet: packetSchema, events: z.array(reviewEventSchema).describe("status changes, oldest first") }) },
    errors: ["CONFLICT", "FORBIDDEN"],
  }),
  export: defineRoute({
    id: "exportReviewHistory",
    method: "GET",
    path: "/api/v1/projects/{id}/packets/{packetId}/review/export",
    tag,
    summary: "The review history as a download",
    access: { kind: "project", role: "viewer" },
    params: packetParams,
    query: z.object({ format: z.enum(["md", "json"]).default("md").describe("markdown or JSON") }),
    response: {
      status: 200,
      description: "the review history (markdown unless format=json)",
      json: reviewHistorySchema,
      text: { "text/markdown": "the review history as a markdown document (the default)" },
      headers: { "content-disposition": 'attachment; filename="review-<packetId>.<format>"' },
    },
  }),
  snapshots: defineRoute({
    id: "listSnapshots",
    method: "GET",
    path: "/api/v1/projects/{id}/packets/{packetId}/snapshots",
    tag,
    summary: "Named snapshots of the shared text, newest first",
    access: { kind: "project", role: "viewer" },
    params: packetParams,
    response: { status: 200, description: "the snapshots", json: z.object({ snapshots: z.array(snapshotSchema).describe("the snapshots, newest first") }) },
  }),
  snapshot: defineRoute({
    id: "takeSnapshot",
    method: "POST",
    path: "/api/v1/projects/{id}/packets/{packetId}/snapshots",
    tag,
    summary: "Keep the shared text under a name",
    access: { kind: "project", role: "editor" },
    params: packetParams,
    body: snapshotInput,
    response: { status: 201, description: "the snapshot", json: z.object({ snapshot: snapshotSchema }) },
  }),
  getSnapshot: defineRoute({
    id: "getSnapshot",
    method: "GET",
    path: "/api/v1/projects/{id}/packets/{packetId}/snapshots/{snapshotId}",
    tag,
    summary: "One snapshot",
    access: { kind: "project", role: "viewer" },
    params: packetParams.extend({ snapshotId: pathId("snapshot id") }),
    response: { status: 200, description: "the snapshot", json: z.object({ snapshot: snapshotSchema }) },
  }),
};

// ---------------------------------------------------------------------------
// What agents did (drafted, updated, requested review, picked up a handoff) through MCP

export const AGENT_ACTIVITY_LIMIT_MAX = 200;

export const activityQuery = z.object({
  cursor: z.string().min(1).max(64).optional().describe("nextCursor of the page before; absent: the newest page"),
  limit: z.coerce.number().int().min(1).max(AGENT_ACTIVITY_LIMIT_MAX).default(50).describe(`rows per page, at most ${AGENT_ACTIVITY_LIMIT_MAX}`),
});

export const agentActivitySchema = z
  .object({
    id: z.string().describe("activity id"),
    projectId: z.string().describe("project id"),
    packetId: z.string().nullable().describe("the packet acted on"),
    tokenId: z.string().nullable().describe("the personal access token the agent called with; null for the stdio server (`workbench mcp`)"),
    agentName: z.string().describe('the token\'s name, or "stdio agent"'),
    actor: z.string().describe('the account the token belongs to, or "local"'),
    action: z.enum(AGENT_ACTIONS).describe("drafted, updated, requested_review or picked_up_handoff"),
    revision: z.number().int().nullable().describe("the revision written, sent for review or picked up"),
    detail: z.string().nullable().describe("a short note: the title drafted, the note sent with a review request"),
    createdAt: isoTime("when"),
  })
  .describe("one thing an agent did");

assertSame<Same<z.infer<typeof agentActivitySchema>, AgentActivityDto>>(true);

export const activityRoutes = {
  list: defineRoute({
    id: "listAgentActivity",
    method: "GET",
    path: "/api/v1/projects/{id}/activity",
    tag: "activity",
    summary: "What agents did in the project, newest first",
    description: "Drafts, updates, review requests and handoffs picked up through MCP, with the token (agent) and the account it belongs to; a page at a time (`cursor`, `limit`).",
    access: { kind: "project", role: "viewer" },
    params: projectParams,
    query: activityQuery,
    response: {
      status: 200,
      description: "a page of activity",
      json: z.object({
        activity: z.array(agentActivitySchema).describe("newest first"),
        nextCursor: z.string().nullable().describe("pass as cursor for the next page; null on the last page"),
      }),
    },
  }),
};
