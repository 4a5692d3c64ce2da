import { describe, expect, it } from "vitest";
import { WorkbenchError } from "../../../lib/core/errors";
import { checkQuery } from "../../../lib/inventory/query-safety";

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (e instanceof WorkbenchError) return e.code;
    throw e;
  }
  return "returned";
}

describe("checkQuery", () => {
  it.each([[""], [" "], ["   "], ["\n"], ["\t \r\n"], ["\u00a0"]])("rejects the blank query %j with INVALID_INPUT", (q) => {
    expect(codeOf(() => checkQuery(q))).toBe("INVALID_INPUT");
  });

  it("a plain identifier is path-safe and unchanged", () => {
    expect(checkQuery("JIRA-123")).toEqual({ query: "JIRA-123", pathSafe: true });
  });

  it.each([["feature/JIRA-123"], ["../etc"], ["a..b"], [".."], ["/"], ["x/../y"]])("%j is refused as a path but kept as a search term", (q) => {
    expect(checkQuery(q)).toEqual({ query: q, pathSafe: false });
  });

  it("a single dot or dotted name is not a traversal", () => {
    expect(checkQuery("v1.2").pathSafe).toBe(true);
    expect(checkQuery(".hidden").pathSafe).toBe(true);
  });

  it("quotes, $() and backticks are plain data", () => {
    for (const q of ['a"b', "it's", "$(touch pwned)", "`id`", "${HOME}", "a;b|c&d"]) {
      expect(checkQuery(q)).toEqual({ query: q, pathSafe: true });
    }
  });

  it("keeps leading and inner whitespace and inner newlines", () => {
    expect(checkQuery("  spaced  ").query).toBe("  spaced  ");
    expect(checkQuery("two\nlines").query).toBe("two\nlines");
  });

  it("drops the trailing newline a query file ends with, as $(cat file) does", () => {
    expect(checkQuery("JIRA-123\n").query).toBe("JIRA-123");
  });

  it("drops every trailing newline, as $(cat file) does", () => {
    expect(checkQuery("JIRA-123\n\n").query).toBe("JIRA-123");
  });
});
