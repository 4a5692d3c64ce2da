import { describe, expect, it } from "vitest";
import { safeNext } from "../../../components/account/safe-next";

describe("safeNext: where sign-in may send you", () => {
  it("keeps paths on this site, with their query and hash", () => {
    expect(safeNext("/projects/abc?tab=runs#x")).toBe("/projects/abc?tab=runs#x");
    expect(safeNext(["/search?q=a", "/other"])).toBe("/search?q=a");
  });

  it("sends everything else home", () => {
    for (const bad of [undefined, null, "", "https://evil.example", "//evil.example", "/\\evil.example", "/a/../..//evil.example", "javascript:alert(1)", "/x\u0000y", "/sign-in", "projects"]) {
      expect(safeNext(bad), String(bad)).toBe("/");
    }
  });
});
