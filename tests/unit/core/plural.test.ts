import { describe, expect, it } from "vitest";
import { plural, pluralWord } from "@/lib/core/plural";

describe("plural", () => {
  it("keeps the singular for exactly one", () => {
    expect(plural(1, "warning")).toBe("1 warning");
    expect(plural(1, "entry", "entries")).toBe("1 entry");
  });

  it("uses the plural for zero, many and fractions", () => {
    expect(plural(0, "warning")).toBe("0 warnings");
    expect(plural(2, "finding")).toBe("2 findings");
    expect(plural(1.5, "day")).toBe("1.5 days");
  });

  it("takes an irregular plural", () => {
    expect(plural(3, "entry", "entries")).toBe("3 entries");
    expect(plural(2, "match", "matches")).toBe("2 matches");
  });

  it("groups thousands as the rest of the interface does", () => {
    expect(plural(12345, "file")).toBe("12,345 files");
  });
});

describe("pluralWord", () => {
  it("answers the noun alone", () => {
    expect(pluralWord(1, "topic")).toBe("topic");
    expect(pluralWord(7, "topic")).toBe("topics");
    expect(pluralWord(0, "index", "indexes")).toBe("indexes");
  });
});
