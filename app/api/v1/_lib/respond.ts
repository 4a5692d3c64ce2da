import { NextResponse } from "next/server";
import { ZodError, type z } from "zod";
import { requireProjectRole, requireSignedIn } from "@/lib/auth/access";
import { principalFrom, type Principal } from "@/lib/auth/principal";
import { refuseCrossSiteWrite } from "@/lib/auth/same-origin";
import type { Role } from "@/lib/auth/roles";
import { toWorkbenchError, WorkbenchError } from "@/lib/core/errors";

/** `{"error":{"code","message"}}` with the code's status; details go to the server log only. */
export function errorResponse(e: unknown): NextResponse {
  if (e instanceof ZodError) {
    const issue = e.issues[0];
    const field = issue?.path.join(".") || "input";
    return NextResponse.json({ error: { code: "INVALID_INPUT", message: `${field}: ${issue?.message ?? "invalid"}` } }, { status: 400 });
  }
  const err = toWorkbenchError(e);
  if (err.code === "INTERNAL") console.error("[workbench] request failed:", err.details ?? err);
  return NextResponse.json({ error: { code: err.code, message: err.message } }, { status: err.httpStatus });
}

type Ctx<P> = { params: Promise<P> };

export interface RequestContext {
  principal: Principal;
}

/**
 * A route that needs a signed-in person (team mode) but no particular project; the handler
 * narrows what it returns to the projects `ctx.principal` may see.
 */
export function route<P = Record<string, never>>(fn: (req: Request, params: P, ctx: RequestContext) => Promise<Response>) {
  return async (req: Request, ctx: Ctx<P>): Promise<Response> => {
    try {
      refuseCrossSiteWrite(req, process.env.WORKBENCH_PUBLIC_URL);
      const principal = requireSignedIn(await principalFrom(req.headers));
      return await fn(req, await ctx.params, { principal });
    } catch (e) {
      return errorResponse(e);
    }
  };
}

export interface ProjectRequestContext extends RequestContext {
  /** The caller's role on the project in the path. */
  role: Role;
}

/**
 * A route under /projects/:id. The caller's role is checked before the handler runs: a project
 * they cannot see answers 404 like a missing one, a role below `need` answers 403.
 */
export function projectRoute<P extends { id: string }>(need: Role, fn: (req: Request, params: P, ctx: ProjectRequestContext) => Promise<Response>) {
  return async (req: Request, ctx: Ctx<P>): Promise<Response> => {
    try {
      refuseCrossSiteWrite(req, process.env.WORKBENCH_PUBLIC_URL);
      const principal = requireSignedIn(await principalFrom(req.headers));
      const params = await ctx.params;
      const role = await requireProjectRole(principal, String(params.id), need);
      return await fn(req, params, { principal, role });
    } catch (e) {
      return errorResponse(e);
    }
  };
}

export async function readJson<S extends z.ZodType>(req: Request, schema: S): Promise<z.output<S>> {
  // Only JSON: a cross-site form can send text/plain without a preflight, never application/json.
  const type = req.headers.get("content-type") ?? "";
  if (!/^application\/json\s*(;|$)/i.test(type)) throw new WorkbenchError("INVALID_INPUT", "The request body must be JSON, sent as Content-Type: application/json.");
  let body: unknown;
  try {
    body = await req.json();
  } catch {
    throw new WorkbenchError("INVALID_INPUT", "The request body must be JSON.");
  }
  return schema.parse(body);
}

export function searchParams(req: Request): Record<string, string> {
  return Object.fromEntries(new URL(req.url).searchParams);
}

/** Who acted, for review history and comments: the account's name in team mode, never a name from the body. */
export function actorName(ctx: RequestContext, claimed: string | null | undefined): string | null {
  return ctx.principal.kind === "user" ? ctx.principal.name : (claimed ?? null);
}

/** The signed-in account of a team-mode request; local mode has no accounts. */
export function requireAccount(ctx: RequestContext): Extract<Principal, { kind: "user" }> {
  if (ctx.principal.kind !== "user") throw new WorkbenchError("NOT_FOUND", "Accounts exist in team mode only.");
  return ctx.principal;
}
