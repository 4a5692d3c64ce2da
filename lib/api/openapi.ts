/**
 * The OpenAPI 3.1 document of the HTTP API, generated from the route contracts: parameters,
 * bodies and responses are the contracts' zod schemas as JSON Schema (2020-12, the dialect
 * OpenAPI 3.1 uses), with every `.describe()` as the description. Inputs are documented as a
 * caller sends them (before defaults and transforms), responses as the server writes them.
 */
import { z } from "zod";
import type { Access, AnyRouteContract } from "../core/contract";
import { errorBodySchema } from "../core/contract";
import { WorkbenchError, type ErrorCode } from "../core/errors";
import { API_ROUTES } from "./routes";

export type JsonSchema = Record<string, unknown>;

export interface OpenApiParameter {
  name: string;
  in: "path" | "query";
  required: boolean;
  description?: string;
  schema: JsonSchema;
}

export interface OpenApiResponse {
  description: string;
  headers?: Record<string, { description: string; schema: JsonSchema }>;
  content?: Record<string, { schema: JsonSchema }>;
}

export interface OpenApiOperation {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  parameters: OpenApiParameter[];
  requestBody?: { required: true; content: { "application/json": { schema: JsonSchema } } };
  responses: Record<string, OpenApiResponse>;
  security?: Record<string, string[]>[];
  /** Who may call it, in words (the Workbench's own extension). */
  "x-access": string;
}

export interface OpenApiDocument {
  openapi: "3.1.0";
  info: { title: string; version: string; description: string };
  servers: { url: string }[];
  tags: { name: string }[];
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, JsonSchema> };
  security: Record<string, string[]>[];
}

function jsonSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  // Refinements and transforms have no JSON Schema; they are documented by the descriptions.
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12", override: dropSafeIntegerBounds }) as JsonSchema;
  return rest;
}

/**
 * zod writes every `.int()` as bounded by ±(2^53 − 1): true, but noise on the API page next to
 * the bounds a field really has. Only those implicit bounds are dropped.
 */
function dropSafeIntegerBounds(ctx: { jsonSchema: JsonSchema }): void {
  const js = ctx.jsonSchema;
  if (js.type !== "integer") return;
  if (js.minimum === Number.MIN_SAFE_INTEGER) delete js.minimum;
  if (js.maximum === Number.MAX_SAFE_INTEGER) delete js.maximum;
}

/** Each property of an object-shaped input schema as a path or query parameter. */
function parametersOf(schema: z.ZodType | undefined, where: "path" | "query"): OpenApiParameter[] {
  if (!schema) return [];
  const js = jsonSchema(schema, "input");
  const props = (js.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((js.required ?? []) as string[]);
  return Object.entries(props).map(([name, s]) => {
    const { description, ...rest } = s;
    return { name, in: where, required: where === "path" || required.has(name), ...(typeof description === "string" ? { description } : {}), schema: rest };
  });
}

export function accessInWords(a: Access): string {
  if (a.kind === "public") return "anyone (no credentials)";
  const parts = [a.kind === "project" ? `the ${a.role} role or above on the project` : "any signed-in caller"];
  if (a.account) parts.push("an account (team mode only)");
  if (a.kind === "signed-in" && a.instanceAdmin) parts.push("instance administrator");
  return parts.join("; ");
}

const statusOf = (code: ErrorCode) => new WorkbenchError(code, "").httpStatus;

/** The error codes a route can answer with: its access checks, its input, and what it declares. */
export function errorCodesOf(c: AnyRouteContract): ErrorCode[] {
  const codes = new Set<ErrorCode>();
  if (c.params || c.query || c.body) codes.add("INVALID_INPUT");
  if (c.access.kind !== "public") codes.add("UNAUTHENTICATED");
  if (c.access.kind === "project") codes.add("NOT_FOUND").add("FORBIDDEN");
  if (c.access.kind !== "public" && c.method !== "GET") codes.add("FORBIDDEN");
  if (c.access.kind === "signed-in" && c.access.instanceAdmin) codes.add("FORBIDDEN");
  if (c.access.kind !== "public" && c.access.account) codes.add("NOT_FOUND");
  for (const e of c.errors ?? []) codes.add(e);
  codes.add("INTERNAL");
  return [...codes];
}

function operationOf(c: AnyRouteContract): OpenApiOperation {
  const res = c.response;
  const ok: OpenApiResponse = { description: res.description };
  const content: Record<string, { schema: JsonSchema }> = {};
  if (res.json) content["application/json"] = { schema: jsonSchema(res.json as z.ZodType, "output") };
  for (const [type, description] of Object.entries(res.text ?? {})) content[type] = { schema: { type: "string", description } };
  if (Object.keys(content).length > 0) ok.content = content;
  if (res.headers) ok.headers = Object.fromEntries(Object.entries(res.headers).map(([name, description]) => [name, { description, schema: { type: "string" } }]));
  const responses: Record<string, OpenApiResponse> = { [String(res.status)]: ok };
  for (const [status, description] of Object.entries(res.also ?? {})) responses[status] = { ...ok, description };
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodesOf(c)) byStatus.set(statusOf(code), [...(byStatus.get(statusOf(code)) ?? []), code]);
  for (const [status, codes] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    responses[String(status)] = { description: codes.join(" or "), content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } };
  }
  return {
    operationId: c.id,
    summary: c.summary,
    ...(c.description ? { description: c.description } : {}),
    tags: [c.tag],
    parameters: [...parametersOf(c.params as z.ZodType | undefined, "path"), ...parametersOf(c.query as z.ZodType | undefined, "query")],
    ...(c.body ? { requestBody: { required: true as const, content: { "application/json": { schema: jsonSchema(c.body as z.ZodType, "input") } } } } : {}),
    responses,
    ...(c.access.kind === "public" ? { security: [] } : {}),
    "x-access": accessInWords(c.access),
  };
}

export function openApiDocument(routes: readonly AnyRouteContract[] = API_ROUTES, version = "0.1.0"): OpenApiDocument {
  const paths: OpenApiDocument["paths"] = {};
  for (const c of routes) (paths[c.path] ??= {})[c.method.toLowerCase()] = operationOf(c);
  return {
    openapi: "3.1.0",
    info: {
      title: "Context Workbench API",
      version,
      description:
        'The HTTP API of the Context Workbench: the same lib/ functions as the pages and the CLI. Every error is `{"error":{"code","message"}}` with the code\'s status. Local mode needs no credentials; team mode needs a session cookie or a personal access token (`Authorization: Bearer wb_…`). Writes from a browser must come from the Workbench\'s own origin.',
    },
    servers: [{ url: "/" }],
    tags: [...new Set(routes.map((r) => r.tag))].map((name) => ({ name })),
    paths,
    components: {
      schemas: { Error: jsonSchema(errorBodySchema, "output") },
      securitySchemes: {
        token: { type: "http", scheme: "bearer", description: "a personal access token (wb_…), team mode" },
        session: { type: "apiKey", in: "cookie", name: "workbench.session_token", description: "the browser session, team mode" },
      },
    },
    security: [{ token: [] }, { session: [] }, {}],
  };
}
