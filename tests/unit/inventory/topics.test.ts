import { describe, expect, it } from "vitest";
import type { TopicRowDto } from "../../../lib/db/dto";
import { buildTopicRow, compareTopics } from "../../../lib/inventory/topics";
import type { SourceKind } from "../../../lib/inventory/types";

const src = (source: SourceKind, o: Partial<{ title: string | null; status: string | null; type: string | null; updatedAt: string | null; listed: boolean }> = {}) => ({
  source,
  slug: "s",
  title: null,
  status: null,
  type: null,
  updatedAt: null,
  listed: true,
  ...o,
});

describe("buildTopicRow", () => {
  it("takes title, status and type from the first source in column order and the newest update", () => {
    const row = buildTopicRow("s", [
      src("proposal", { title: "P", status: "draft", updatedAt: "2026-03-01T00:00:00Z" }),
      src("brainstorm", { title: "B", status: "promoted", type: "brainstorm", updatedAt: "2026-01-01T00:00:00Z" }),
      src("work", { title: null, status: "in_progress", type: "implementation", updatedAt: "2026-02-01T00:00:00Z" }),
    ]);
    expect(row).toEqual({
      slug: "s",
      title: "B",
      status: "in_progress",
      type: "implementation",
      updatedAt: "2026-03-01T00:00:00Z",
      sources: ["work", "brainstorm", "proposal"],
    });
  });

  it("ignores sources that are not listed; no listed source means no row", () => {
    expect(buildTopicRow("s", [src("brainstorm", { listed: false, title: "hidden" })])).toBeNull();
    const row = buildTopicRow("s", [src("work", { listed: false, title: "W" }), src("refactoring", { title: "R" })]);
    expect(row?.title).toBe("R");
    expect(row?.sources).toEqual(["refactoring"]);
  });

  it("a topic without any date has updatedAt null", () => {
    expect(buildTopicRow("s", [src("work")])?.updatedAt).toBeNull();
  });
});

describe("compareTopics", () => {
  const row = (slug: string, updatedAt: string | null): TopicRowDto => ({ slug, updatedAt, title: null, status: null, type: null, sources: [] });
  it("orders newest first, undated last, then by slug", () => {
    const rows = [row("b", null), row("c", "2026-01-01T00:00:00Z"), row("a", null), row("d", "2026-02-01T00:00:00Z"), row("e", "2026-01-01T00:00:00Z")];
    expect(rows.sort(compareTopics).map((r) => r.slug)).toEqual(["d", "c", "e", "a", "b"]);
  });
});
