import { NextResponse } from "next/server";
import { ZodError, type z } from "zod";
import type { Principal } from "@/lib/auth/principal";
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

/** Who is asking, for the helpers below. */
export interface RequestContext {
  principal: Principal;
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
