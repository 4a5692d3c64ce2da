import { NextResponse } from "next/server";
import type { z } from "zod";
import { requireInstanceAdmin, requireProjectRole, requireSignedIn } from "@/lib/auth/access";
import { principalFrom, type Principal } from "@/lib/auth/principal";
import type { Role } from "@/lib/auth/roles";
import { refuseCrossSiteWrite } from "@/lib/auth/same-origin";
import type { AnyRouteContract, BodyOut, ContractRole, ParamsOut, QueryOut, ResponseIn } from "@/lib/core/contract";
import { readEnv } from "@/lib/core/env";
import { WorkbenchError } from "@/lib/core/errors";
import { errorResponse, readJson, requireAccount, searchParams } from "./respond";

// The contract's role words are the access layer's roles.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameRoles: Same<ContractRole, Role> = true;
void sameRoles;

/** A JSON answer with a status or headers of its own (a 503 from a probe, no-store, a download name). */
export class Reply<T> {
  constructor(
    readonly body: T,
    readonly init: { status?: number; headers?: Record<string, string> } = {},
  ) {}
}
export const reply = <T>(body: T, init?: { status?: number; headers?: Record<string, string> }) => new Reply(body, init);

export interface HandlerInput<C extends AnyRouteContract> {
  req: Request;
  params: ParamsOut<C>;
  query: QueryOut<C>;
  body: BodyOut<C>;
  /** Team mode: the account or token's person; local mode: the one local person. Absent on public routes. */
  principal: Principal;
  /** The caller's role on the project in the path (project routes only). */
  role: Role | null;
}

/**
 * What a handler answers: the JSON body (checked against the contract's schema), a {@link Reply},
 * nothing for a 204, or a ready Response for what is not JSON (markdown, an event stream),
 * which the contract declares under `response.text`.
 */
type Answer<C extends AnyRouteContract> = ResponseIn<C> | Reply<ResponseIn<C>> | Response | void;

type NextCtx = { params: Promise<Record<string, string | string[]>> };

/** Whether replies are checked against their schemas: while developing and in tests, never in production. */
const checkReplies = () => readEnv("NODE_ENV") !== "production";

function checkReply(contract: AnyRouteContract, body: unknown): void {
  const schema = contract.response.json as z.ZodType | undefined;
  if (!schema || !checkReplies()) return;
  const r = schema.safeParse(body);
  if (!r.success) {
    throw new WorkbenchError("INTERNAL", "Something went wrong on the server.", {
      contract: `${contract.method} ${contract.path}`,
      reply: "does not match the response schema",
      issues: r.error.issues.slice(0, 5),
    });
  }
}

/**
 * Builds a Next route handler from a contract: checks access (before any input is read, so a
 * project the caller cannot see answers 404 whatever the input), parses the path parameters,
 * query and body with the contract's schemas, runs `fn`, and answers. Every failure is the one
 * error body with its code's status; a stack never leaves the server.
 *
 * `guard` runs after the access checks and before the input is parsed, for a refusal that must
 * not depend on the input (as the access checks).
 */
export function handle<C extends AnyRouteContract>(
  contract: C,
  fn: (input: HandlerInput<C>) => Promise<Answer<C>>,
  opts: { guard?: (principal: Principal) => void } = {},
): (req: Request, ctx: NextCtx) => Promise<Response> {
  return async (req, ctx) => {
    try {
      const access = contract.access;
      let principal: Principal = { kind: "local" };
      let role: Role | null = null;
      const rawParams = (await ctx.params) ?? {};
      if (access.kind !== "public") {
        refuseCrossSiteWrite(req, readEnv("WORKBENCH_PUBLIC_URL"));
        principal = requireSignedIn(await principalFrom(req.headers));
        if (access.kind === "project") role = await requireProjectRole(principal, String(rawParams.id), access.role);
        if (access.account) requireAccount({ principal });
        if (access.kind === "signed-in" && access.instanceAdmin) requireInstanceAdmin(principal);
        opts.guard?.(principal);
      }
      const params = contract.params ? (contract.params as z.ZodType).parse(rawParams) : undefined;
      const query = contract.query ? (contract.query as z.ZodType).parse(searchParams(req)) : undefined;
      const body = contract.body ? await readJson(req, contract.body as z.ZodType) : undefined;
      const answer = (await fn({ req, params, query, body, principal, role } as HandlerInput<C>)) as unknown;
      if (answer instanceof Response) return answer;
      if (contract.response.status === 204) return new NextResponse(null, { status: 204 });
      const { body: out, init } = answer instanceof Reply ? answer : new Reply(answer);
      checkReply(contract, out);
      return NextResponse.json(out, { status: init.status ?? contract.response.status, headers: init.headers });
    } catch (e) {
      return errorResponse(e);
    }
  };
}
