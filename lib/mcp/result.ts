import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { ZodError } from "zod";
import { toWorkbenchError } from "../core/errors";
import { PyFloat } from "../memory/canonical-json";

export function textResult(text: string): CallToolResult {
  return { content: [{ type: "text", text }] };
}

/** JSON as text for clients that read only content, and the same object as structuredContent. */
export function jsonResult(value: object): CallToolResult {
  return { content: [{ type: "text", text: JSON.stringify(value, null, 2) }], structuredContent: { ...value } };
}

/**
 * A failure as the tool's error result: a WorkbenchError's user message, a zod issue as
 * `field: message`, anything else a generic message. Details and stacks go to stderr only,
 * because stdout carries the protocol and the message reaches the model.
 */
export function errorResult(e: unknown): CallToolResult {
  let message: string;
  if (e instanceof ZodError) {
    const issue = e.issues[0];
    message = `${issue?.path.join(".") || "input"}: ${issue?.message ?? "invalid"}`;
  } else {
    const err = toWorkbenchError(e);
    if (err.code === "INTERNAL") process.stderr.write(`[workbench mcp] tool failed: ${String((err.details as Error | undefined)?.stack ?? err.details ?? err)}\n`);
    message = err.message;
  }
  return { content: [{ type: "text", text: message }], isError: true };
}

/** Runs a tool body and turns any failure into an error result instead of a protocol error. */
export async function guard(body: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await body();
  } catch (e) {
    return errorResult(e);
  }
}

/** A document read the harness's way as plain JSON (floats written `1.0` are numbers again). */
export const plainRecord = (v: unknown): Record<string, unknown> => JSON.parse(JSON.stringify(v, (_k, x: unknown) => (x instanceof PyFloat ? x.value : x))) as Record<string, unknown>;
