import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { RETURN_CAP, checkDraft, draftPrimer, draftTaskBrief, nextPacketFile } from "../../../lib/memory/bounded-brief";
import { readCoord } from "../../../lib/memory/coord";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "wb-brief-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
fs.cpSync(path.resolve(import.meta.dirname, "../../../examples/sample-project/.coord"), path.join(tmp, ".coord"), { recursive: true });

const fill = (md: string) =>
  md
    .replace("- <one behaviour the task must deliver>", "- revokes every session of a user when the password changes")
    .replace("- may read: <paths>", "- may read: src/auth/")
    .replace("- may write: <paths>", "- may write: src/auth/SessionService.ts")
    .replace("- must not touch: <paths>", "- must not touch: migrations/")
    .replace("- <runnable check>", "- npm test -- session");

describe("bounded briefs and primers", () => {
  it("drafts a task packet in the skill's shape with the recorded decisions and who made them", async () => {
    const snapshot = await readCoord(tmp);
    const md = draftTaskBrief(snapshot, "example-task");
    expect(md.split("\n")[0]).toBe("# Context packet — example-task");
    expect(md).toContain("- policy_ref: .coord/policy.json");
    expect(md).toMatch(/- memory M1 \/ human:\S+ \/ approve \/ [0-9a-f]{64}/);
    for (const item of RETURN_CAP) expect(md).toContain(`- ${item}`);
    // Placeholders block until a person fills them in.
    const draft = checkDraft("brief", md, 2000);
    expect(draft.ready).toBe(false);
    expect(draft.issues.map((i) => i.message).join("\n")).toMatch(/placeholder <one behaviour the task must deliver>/);
    const filled = checkDraft("brief", fill(md), 2000);
    expect(filled.issues.filter((i) => i.severity !== "warning")).toEqual([]);
    expect(filled.ready).toBe(true);
  });

  it("refuses a brief whose return contract leaves out part of the cap, or that is over the policy's cap", async () => {
    const md = fill(draftTaskBrief(await readCoord(tmp), "example-task"));
    const noRisks = checkDraft("brief", md.replace("- risks\n", ""), 2000);
    expect(noRisks.ready).toBe(false);
    expect(noRisks.issues.map((i) => i.message)).toContain('.coord/context_NNN.md: the return contract does not cap "risks" (the seed\'s return cap: status, summary, files changed, checks run, risks, blockers)');
    const over = checkDraft("brief", md, 50);
    expect(over.ready).toBe(false);
    expect(over.issues.at(-1)!.message).toMatch(/over the policy's 50/);
  });

  it("drafts a primer covering goal, state, decisions with their approvers, open questions, evidence and next step", async () => {
    const md = draftPrimer(await readCoord(tmp));
    for (const h of ["## Goal", "## Current state", "## Decisions and who made them", "## Open questions", "## Evidence paths", "## Next step"]) expect(md).toContain(h);
    expect(md).toMatch(/M1: .*\(approved by human:/);
    expect(md).toMatch(/## Open questions\n- M2: /);
    expect(md).toContain("example-task: running");
    const filled = md.replace("- <what this work is for>", "- exports survive restarts").replace("- <the next concrete action>", "- approve the pending proposal");
    expect(checkDraft("primer", filled, 1000).ready).toBe(true);
  });

  it("numbers a new packet after the existing ones", () => {
    expect(nextPacketFile([])).toBe(".coord/context_001.md");
    expect(nextPacketFile([".coord/context_001.md", ".coord/context_007.md"])).toBe(".coord/context_008.md");
  });
});
