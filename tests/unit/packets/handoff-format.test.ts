import { describe, expect, it } from "vitest";
import { handoffFormat } from "../../../lib/packets/handoff-format";

describe("handoffFormat: ?format wins, else Accept", () => {
  it("keeps ?format=json and ?format=md whatever the Accept header says", () => {
    expect(handoffFormat("json", "text/markdown")).toBe("json");
    expect(handoffFormat("md", "application/json")).toBe("md");
  });

  it.each([
    ["application/json", "json"],
    ["application/json; charset=utf-8", "json"],
    ["application/json, text/plain, */*", "json"],
    ["text/markdown;q=0.5, application/json", "json"],
    [null, "md"],
    ["*/*", "md"],
    ["text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", "md"],
    ["text/markdown, application/json", "md"],
    ["application/json;q=0.5, */*", "md"],
    ["application/json;q=0", "md"],
  ])("Accept %j → %s", (accept, want) => {
    expect(handoffFormat(undefined, accept)).toBe(want);
  });
});
