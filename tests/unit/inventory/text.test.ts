import { describe, expect, it } from "vitest";
import { bulletsUnder, countHeadings, fieldLine, firstHeading, headLines, normalizeTimestamp } from "../../../lib/inventory/sources/text";

describe("markdown helpers", () => {
  it("normalizeTimestamp gives ISO-8601 UTC without milliseconds, null for junk", () => {
    expect(normalizeTimestamp("2026-02-09T14:30:00Z")).toBe("2026-02-09T14:30:00Z");
    expect(normalizeTimestamp("2026-02-09T16:30:00+02:00")).toBe("2026-02-09T14:30:00Z");
    expect(normalizeTimestamp("2026-02-09T14:30:00.250Z")).toBe("2026-02-09T14:30:00.250Z");
    expect(normalizeTimestamp("soon")).toBeNull();
    expect(normalizeTimestamp("")).toBeNull();
    expect(normalizeTimestamp(12)).toBeNull();
  });

  it("firstHeading takes the first level-1 heading", () => {
    expect(firstHeading("intro\n## Two\n# One #\n# Later")).toBe("One");
    expect(firstHeading("no heading")).toBeNull();
  });

  it("bulletsUnder collects top-level bullets under the matching heading until the next heading of the same level", () => {
    const md = ["# T", "## Key decisions", "- one", "  - nested (skipped)", "* two", "1. three", "- [x] four", "### Sub", "- five", "## Other", "- six"].join("\n");
    expect(bulletsUnder(md, /decision/i)).toEqual(["one", "two", "three", "four", "five"]);
    expect(bulletsUnder(md, /decision/i, 2)).toEqual(["one", "two"]);
    expect(bulletsUnder(md, /nothing/)).toEqual([]);
  });

  it("fieldLine reads `Key: value` and `**Key:** value`", () => {
    expect(fieldLine("# P\nStatus: final\n", "Status")).toBe("final");
    expect(fieldLine("**Status:** Draft", "Status")).toBe("Draft");
    expect(fieldLine("nothing", "Status")).toBeNull();
  });

  it("countHeadings and headLines", () => {
    expect(countHeadings("## Approach 1: A\n## Approach 2: B\n## Option C\n## Key decisions", /^(approach|option)\b/i)).toBe(3);
    expect(headLines("a\n\n b\nc\nd", 3)).toBe("a\n b\nc");
  });
});
