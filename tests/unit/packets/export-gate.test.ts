import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PACKET_TEMPLATE, validatePacket } from "../../../lib/packets";
import { emitInfo, exportRefusal } from "../../../lib/packets/export-gate";

const CLEAN = fs.readFileSync(path.resolve(import.meta.dirname, "../../fixtures/packets/clean-packet.md"), "utf8");

describe("exportRefusal: Copy and Download follow a validation of the exact text exported", () => {
  it("lets a passing text out", () => {
    expect(exportRefusal(CLEAN, validatePacket(CLEAN))).toBeNull();
  });

  it("refuses a text whose validation is of an earlier draft, even one that passed", () => {
    const typed = CLEAN.replace("- Changing the session TTL", "- Changing the session TTL (see ttl.ts:9)");
    expect(exportRefusal(typed, validatePacket(CLEAN))).toMatch(/not caught up/);
    expect(exportRefusal(typed, validatePacket(typed))).toMatch(/^Refused: 1 BLOCK finding stand \(file-line-ref\)/);
  });

  it("refuses a failing text, naming its BLOCK rules, and waits while the checks load", () => {
    const refusal = exportRefusal(PACKET_TEMPLATE, validatePacket(PACKET_TEMPLATE));
    expect(refusal).toMatch(/^Refused: \d+ BLOCK findings stand \(.*template-placeholder.*\)/);
    expect(exportRefusal(CLEAN, null)).toMatch(/loading/);
  });
});

describe("emitInfo: Emit names the approved revision it sends", () => {
  it("says Emit with no revision while none is approved", () => {
    expect(emitInfo({ approvedNumber: null, headNumber: 2 }, false)).toMatchObject({ label: "Emit", note: null });
  });

  it("labels the approved revision, without a note when the editor shows exactly it", () => {
    const e = emitInfo({ approvedNumber: 3, headNumber: 3 }, false);
    expect(e).toMatchObject({ label: "Emit r3", note: null });
    expect(e.title).toContain("approved revision r3");
  });

  it("says it sends the approved revision, not a later revision or unsaved changes", () => {
    const later = emitInfo({ approvedNumber: 3, headNumber: 5 }, false);
    expect(later.label).toBe("Emit r3");
    expect(later.note).toBe("Emit sends approved revision r3, not revision r5 in the editor. To hand off the draft, save it and have it approved.");
    const unsaved = emitInfo({ approvedNumber: 3, headNumber: 3 }, true);
    expect(unsaved.note).toContain("not the unsaved changes");
    expect(unsaved.title).toContain("not the unsaved changes");
  });
});
