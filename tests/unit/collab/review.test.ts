import { describe, expect, it } from "vitest";
import { availableActions, nextStatus, statusAfterSave, REVIEW_ACTIONS, REVIEW_STATUSES } from "../../../lib/collab/review";

const clean = { blockCount: 0 };

describe("review workflow", () => {
  it("goes draft → in review → changes requested → in review → approved", () => {
    let s = nextStatus("draft", "request_review", clean);
    expect(s).toBe("in_review");
    s = nextStatus(s, "request_changes", clean);
    expect(s).toBe("changes_requested");
    s = nextStatus(s, "request_review", clean);
    s = nextStatus(s, "approve", clean);
    expect(s).toBe("approved");
  });

  it("refuses transitions that do not start from the current status, naming it", () => {
    expect(() => nextStatus("draft", "approve", clean)).toThrow(/Cannot approve a packet that is draft/);
    expect(() => nextStatus("approved", "request_changes", clean)).toThrow(/in review|approved/);
    expect(() => nextStatus("changes_requested", "approve", clean)).toThrow(/changes requested/);
  });

  it("never approves a revision with a BLOCK finding", () => {
    expect(() => nextStatus("in_review", "approve", { blockCount: 2 })).toThrow(expect.objectContaining({ code: "GATE_REFUSED" }));
  });

  it("lists exactly the actions each status allows", () => {
    expect(availableActions("draft")).toEqual(["request_review"]);
    expect(availableActions("in_review")).toEqual(["approve", "request_changes", "withdraw"]);
    expect(availableActions("changes_requested")).toEqual(["request_review"]);
    expect(availableActions("approved")).toEqual(["withdraw"]);
    for (const s of REVIEW_STATUSES)
      for (const a of REVIEW_ACTIONS)
        expect(availableActions(s).includes(a)).toBe(
          (() => {
            try {
              nextStatus(s, a, clean);
              return true;
            } catch {
              return false;
            }
          })(),
        );
  });

  it("sends an approved packet back to draft when a new revision is saved", () => {
    expect(statusAfterSave("approved")).toBe("draft");
    expect(statusAfterSave("in_review")).toBe("in_review");
  });
});
