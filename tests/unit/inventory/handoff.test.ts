import { describe, expect, it } from "vitest";
import { handoffOptions } from "../../../lib/inventory/handoff";

const NO = { label: "No, just reviewing", command: "" };

describe("handoffOptions (Phase 4 table)", () => {
  it.each([
    ["implementation", "in_progress", [{ label: "Resume implementation", command: "/resume-work S-1" }]],
    ["implementation", "completed", [{ label: "Extend implementation", command: "/resume-work S-1" }]],
    ["requirements", "in_progress", [{ label: "Resume requirements", command: "/resume-work S-1" }]],
    [
      "requirements",
      "completed",
      [
        { label: "Start implementing", command: "/implement S-1" },
        { label: "Extend requirements", command: "/resume-work S-1" },
      ],
    ],
    ["brainstorm", "in_progress", [{ label: "Resume brainstorm", command: "/resume-work S-1" }]],
    ["brainstorm", "completed", [{ label: "Create requirements from brainstorm", command: "/resume-work S-1" }]],
    ["proposal", "draft", [{ label: "Resume proposal", command: "/resume-work S-1" }]],
    ["proposal", "completed", [{ label: "Resume proposal", command: "/resume-work S-1" }]],
    ["proposal", null, [{ label: "Resume proposal", command: "/resume-work S-1" }]],
    ["epic", "in_progress", [{ label: "Resume epic", command: "/resume-work S-1" }]],
    ["epic", "completed", [{ label: "Resume epic", command: "/resume-work S-1" }]],
  ] as const)("(%s, %s)", (type, status, options) => {
    expect(handoffOptions(type, status, "S-1")).toEqual([...options, NO]);
  });

  it("always ends with 'No, just reviewing'; unknown combinations offer only that", () => {
    expect(handoffOptions("implementation", "paused", "x")).toEqual([NO]);
    expect(handoffOptions("brainstorm", "promoted", "x")).toEqual([NO]);
    expect(handoffOptions("troubleshoot", "in_progress", "x")).toEqual([NO]);
    expect(handoffOptions(null, null, "x")).toEqual([NO]);
  });

  it("passes the slug through verbatim", () => {
    expect(handoffOptions("epic", "x", "PROJ-42")[0]!.command).toBe("/resume-work PROJ-42");
  });
});
