/**
 * The operations API: liveness, readiness and the load benchmark's statement counter. Public:
 * a probe carries no credentials, and none of them reads project data. Their handlers stay
 * plain synchronous-capable functions (a probe must not wait on the handler builder's access
 * checks); the contract documents them and the route test holds them to it.
 */
import { z } from "zod";
import { defineRoute } from "../core/contract";

const checkSchema = z.object({ ok: z.boolean().describe("whether the check passed"), message: z.string().describe("what it found") });

export const opsRoutes = {
  health: defineRoute({
    id: "health",
    method: "GET",
    path: "/api/health",
    tag: "operations",
    summary: "Liveness: 200 while the process serves requests",
    description: "Touches no database.",
    access: { kind: "public" },
    response: {
      status: 200,
      description: "alive",
      json: z.object({ status: z.literal("ok").describe("always ok"), version: z.string().describe("the Workbench version"), uptimeSeconds: z.number().describe("seconds since the process started") }),
      headers: { "cache-control": "no-store" },
    },
  }),
  ready: defineRoute({
    id: "ready",
    method: "GET",
    path: "/api/ready",
    tag: "operations",
    summary: "Readiness: the database is reachable and migrated (and co-editing listens)",
    access: { kind: "public" },
    response: {
      status: 200,
      description: "ready",
      json: z.object({ status: z.enum(["ready", "not_ready"]).describe("ready or not"), checks: z.record(z.string(), checkSchema).describe("each check by name") }),
      headers: { "cache-control": "no-store" },
      also: { 503: "not ready: a check failed (same body)" },
    },
  }),
  queryStats: defineRoute({
    id: "queryStats",
    method: "GET",
    path: "/api/query-stats",
    tag: "operations",
    summary: "SQL statements this server process has sent since it started",
    description: "For the load benchmark's queries per page. Not found unless the server runs with WORKBENCH_QUERY_STATS=1; touches no database.",
    access: { kind: "public" },
    response: { status: 200, description: "the count", json: z.object({ queries: z.number().int().describe("statements sent") }), headers: { "cache-control": "no-store" } },
    errors: ["NOT_FOUND"],
  }),
};
