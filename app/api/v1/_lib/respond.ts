import { NextResponse } from "next/server";
import { ZodError, type z } from "zod";
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

export function route<P = Record<string, never>>(fn: (req: Request, params: P) => Promise<Response>) {
  return async (req: Request, ctx: Ctx<P>): Promise<Response> => {
    try {
      return await fn(req, await ctx.params);
    } catch (e) {
      return errorResponse(e);
    }
  };
}

export async function readJson<S extends z.ZodType>(req: Request, schema: S): Promise<z.output<S>> {
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
