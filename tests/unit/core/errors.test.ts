import { describe, expect, it } from "vitest";
import { WorkbenchError, isWorkbenchError, toWorkbenchError, type ErrorCode } from "../../../lib/core/errors";

describe("WorkbenchError", () => {
  it.each<[ErrorCode, number]>([
    ["INVALID_INPUT", 400],
    ["UNSAFE_PATH", 400],
    ["NOT_FOUND", 404],
    ["CONFLICT", 409],
    ["TOO_LARGE", 413],
    ["UNREADABLE", 422],
    ["INTERNAL", 500],
  ])("%s maps to HTTP %i", (code, status) => {
    const e = new WorkbenchError(code, "m");
    expect(e.httpStatus).toBe(status);
    expect(e.code).toBe(code);
    expect(e.name).toBe("WorkbenchError");
    expect(e).toBeInstanceOf(Error);
  });

  it("toWorkbenchError keeps a WorkbenchError and hides anything else behind INTERNAL", () => {
    const own = new WorkbenchError("CONFLICT", "busy");
    expect(toWorkbenchError(own)).toBe(own);
    const raw = new Error("SQLITE_CORRUPT at /var/secret/path");
    const wrapped = toWorkbenchError(raw);
    expect(wrapped.code).toBe("INTERNAL");
    expect(wrapped.message).not.toContain("/var/secret");
    expect(wrapped.details).toBe(raw);
    expect(isWorkbenchError(wrapped)).toBe(true);
    expect(isWorkbenchError(raw)).toBe(false);
  });
});
