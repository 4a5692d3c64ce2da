/**
 * The one error type of the Workbench. `message` is safe to show a user; `details`
 * are for logs only and never leave the server.
 */
export type ErrorCode =
  | "INVALID_INPUT"
  | "NOT_FOUND"
  | "CONFLICT"
  | "UNSAFE_PATH"
  | "UNREADABLE"
  | "TOO_LARGE"
  /** A gate refuses the action (e.g. a packet with a BLOCK finding cannot be emitted). */
  | "GATE_REFUSED"
  /** The packet exists but nothing of it was emitted for handoff yet (the answer says its review state). */
  | "NOT_EMITTED"
  /** Team mode: no valid session or token came with the request. */
  | "UNAUTHENTICATED"
  /** Team mode: the person can see the project, but their role does not allow this. */
  | "FORBIDDEN"
  | "INTERNAL";

const HTTP_STATUS: Record<ErrorCode, number> = {
  INVALID_INPUT: 400,
  UNSAFE_PATH: 400,
  NOT_FOUND: 404,
  CONFLICT: 409,
  TOO_LARGE: 413,
  UNREADABLE: 422,
  GATE_REFUSED: 422,
  NOT_EMITTED: 409,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  INTERNAL: 500,
};

export class WorkbenchError extends Error {
  readonly code: ErrorCode;
  readonly details?: unknown;

  constructor(code: ErrorCode, message: string, details?: unknown) {
    super(message);
    this.name = "WorkbenchError";
    this.code = code;
    this.details = details;
  }

  get httpStatus(): number {
    return HTTP_STATUS[this.code];
  }
}

export function isWorkbenchError(e: unknown): e is WorkbenchError {
  return e instanceof WorkbenchError;
}

/** Any thrown value as a WorkbenchError; unknown failures become INTERNAL with a generic message. */
export function toWorkbenchError(e: unknown): WorkbenchError {
  if (isWorkbenchError(e)) return e;
  return new WorkbenchError("INTERNAL", "Something went wrong on the server.", e);
}

/** Parses input with a zod schema; a failure is INVALID_INPUT naming the first field and its problem. */
export function parseInput<S extends { safeParse(v: unknown): { success: true; data: unknown } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } } }>(
  schema: S,
  raw: unknown,
): Extract<ReturnType<S["safeParse"]>, { success: true }>["data"] {
  const r = schema.safeParse(raw);
  if (r.success) return r.data as Extract<ReturnType<S["safeParse"]>, { success: true }>["data"];
  const issue = r.error.issues[0];
  const field = issue?.path.map(String).join(".") || "input";
  throw new WorkbenchError("INVALID_INPUT", `${field}: ${issue?.message ?? "invalid"}`, r.error.issues);
}
