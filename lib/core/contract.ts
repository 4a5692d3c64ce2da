/**
 * The HTTP API's contract: each route under /api declares its path parameters, query, body and
 * response as zod schemas (in `lib/<capability>/schemas.ts`). The route handler is built from the
 * contract (app/api/v1/_lib/handler.ts), the browser calls the API through it (lib/api/client.ts),
 * and the OpenAPI document is generated from it (lib/api/openapi.ts), so the three cannot drift.
 *
 * Pure: zod only, safe in the browser.
 */
import { z } from "zod";
import type { ErrorCode } from "./errors";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
export const HTTP_METHODS: readonly HttpMethod[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/** A person's role on a project, lowest first (the same words as lib/auth/roles.ts). */
export type ContractRole = "viewer" | "editor" | "approver" | "admin";

/**
 * Who may call a route. Checked before any input is parsed, in this order: the caller is
 * signed in (team mode), holds `role` on the project in the path, has an account (team mode
 * only: local mode has none), and is an instance administrator.
 */
export type Access = { kind: "public" } | { kind: "signed-in"; account?: boolean; instanceAdmin?: boolean } | { kind: "project"; role: ContractRole; account?: boolean };

/** Media types a route may answer with besides JSON; each is declared so the document shows it. */
export type TextMediaType = "text/markdown" | "text/event-stream";

export interface ResponseSpec<R extends z.ZodType | undefined = z.ZodType | undefined> {
  /** The status of a successful answer. */
  status: 200 | 201 | 202 | 204;
  description: string;
  /** The JSON body (absent: no JSON body, e.g. 204 or a stream). */
  json?: R;
  /** Other representations, chosen by a query parameter or the Accept header. */
  text?: Partial<Record<TextMediaType, string>>;
  /** Response headers worth knowing, name → meaning. */
  headers?: Record<string, string>;
  /** Further statuses that carry the same JSON shape (e.g. 503 from the readiness probe), status → meaning. */
  also?: Record<number, string>;
}

export interface RouteContract<
  P extends z.ZodType | undefined = z.ZodType | undefined,
  Q extends z.ZodType | undefined = z.ZodType | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  R extends z.ZodType | undefined = z.ZodType | undefined,
> {
  /** Stable operationId, e.g. "listProjects". */
  id: string;
  method: HttpMethod;
  /** OpenAPI-style path: `/api/v1/projects/{id}`. */
  path: string;
  /** Groups operations on the API page and in the document (the capability). */
  tag: string;
  summary: string;
  description?: string;
  access: Access;
  params?: P;
  query?: Q;
  /** A JSON body (sent as Content-Type: application/json). */
  body?: B;
  response: ResponseSpec<R>;
  /** Error codes this route answers with besides the access ones (documented; the status follows the code). */
  errors?: ErrorCode[];
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyRouteContract = RouteContract<any, any, any, any>;

/** Declares a route; the literal types are kept so handlers and the client are typed by it. */
export function defineRoute<P extends z.ZodType | undefined = undefined, Q extends z.ZodType | undefined = undefined, B extends z.ZodType | undefined = undefined, R extends z.ZodType | undefined = undefined>(
  c: RouteContract<P, Q, B, R>,
): RouteContract<P, Q, B, R> {
  return c;
}

type InOf<S> = S extends z.ZodType ? z.input<S> : undefined;
type OutOf<S> = S extends z.ZodType ? z.output<S> : undefined;
type Part<C, K extends 0 | 1 | 2 | 3> = C extends RouteContract<infer P, infer Q, infer B, infer R> ? [P, Q, B, R][K] : never;

/** What a handler receives, parsed. */
export type ParamsOut<C extends AnyRouteContract> = OutOf<Part<C, 0>>;
export type QueryOut<C extends AnyRouteContract> = OutOf<Part<C, 1>>;
export type BodyOut<C extends AnyRouteContract> = OutOf<Part<C, 2>>;
/** What a handler answers with as JSON (before the schema's check) and what a client receives (after it). */
export type ResponseIn<C extends AnyRouteContract> = InOf<Part<C, 3>>;
export type ResponseOut<C extends AnyRouteContract> = OutOf<Part<C, 3>>;
/** What a caller sends. */
export type ParamsIn<C extends AnyRouteContract> = InOf<Part<C, 0>>;
export type QueryIn<C extends AnyRouteContract> = InOf<Part<C, 1>>;
export type BodyIn<C extends AnyRouteContract> = InOf<Part<C, 2>>;

// ---------------------------------------------------------------------------
// Schemas every capability shares

/** An id in a path (database ids are short; the cap keeps hostile input out of queries and logs). */
export const pathId = (what: string, max = 64) => z.string().min(1).max(max).describe(what);

/** `{id}`: the project in the path. One schema for every route under /projects/{id}. */
export const projectIdParam = pathId("project id");
export const projectParams = z.object({ id: projectIdParam });

/** The one error body every route answers with: the code's HTTP status, a message safe to show a person. */
export const errorBodySchema = z
  .object({
    error: z.object({
      code: z.string().describe("INVALID_INPUT, NOT_FOUND, CONFLICT, UNSAFE_PATH, UNREADABLE, TOO_LARGE, GATE_REFUSED, NOT_EMITTED, UNAUTHENTICATED, FORBIDDEN or INTERNAL"),
      message: z.string().describe("what went wrong, in words a user can act on; never a stack or internal detail"),
    }),
  })
  .describe("an error");

/**
 * A nested document the response passes on as read (a .coord file, a convergence payload): an
 * object whose fields the capability's own readers describe, opaque here.
 */
export const opaque = (what: string) => z.unknown().meta({ type: "object", description: what });

/** ISO-8601 timestamp as the API writes them. */
export const isoTime = (what: string) => z.string().describe(`${what} (ISO-8601)`);
