import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { RETURN_CAP, checkDraft, draftPrimer, draftTaskBrief, missingReturnCap, nextPacketFile, recordedActors } from "../../../lib/memory/bounded-brief";
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
    .replace("- <runnable check>", "- npm test -- session")
    .replace("- <interfaces or schemas the task relies on, by path (or none)>", "- src/auth/SessionService.ts: revokeAll(userId)");

describe("bounded briefs and primers", () => {
  it("drafts a task packet in the skill's shape with the recorded decisions and who made them", async () => {
    const snapshot = await readCoord(tmp);
    const md = draftTaskBrief(snapshot, "define-auth-contract");
    expect(md.split("\n")[0]).toBe("# Context packet — define-auth-contract");
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
    const md = fill(draftTaskBrief(await readCoord(tmp), "define-auth-contract"));
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
    expect(md).toContain("define-auth-contract: running");
    const filled = md.replace("- <what this work is for>", "- exports survive restarts").replace("- <the next concrete action>", "- approve the pending proposal");
    expect(checkDraft("primer", filled, 1000).ready).toBe(true);
  });

  it("numbers a new packet after the existing ones", () => {
    expect(nextPacketFile([])).toBe(".coord/context_001.md");
    expect(nextPacketFile([".coord/context_001.md", ".coord/context_007.md"])).toBe(".coord/context_008.md");
  });

  it("checks the return cap one item per field, not by searching the text", async () => {
    const md = fill(draftTaskBrief(await readCoord(tmp), "define-auth-contract"));
    const cap = "- status\n- summary (short; long output goes to a file, returned by path)\n- files changed\n- checks run\n- risks\n- blockers\n";
    // "risks and blockers" is one item: neither field has an item of its own.
    const joined = checkDraft("brief", md.replace("- risks\n- blockers\n", "- risks and blockers\n"), 2000);
    expect(joined.ready).toBe(false);
    expect(joined.issues.filter((i) => i.field === "Return contract").map((i) => i.message)).toEqual([
      '.coord/context_NNN.md: the return contract does not cap "risks" (the seed\'s return cap: status, summary, files changed, checks run, risks, blockers)',
      '.coord/context_NNN.md: the return contract does not cap "blockers" (the seed\'s return cap: status, summary, files changed, checks run, risks, blockers)',
    ]);
    // All six words on one line are one item, and a word inside another item caps nothing.
    expect(checkDraft("brief", md.replace(cap, "- status, summary, files changed, checks run, risks, blockers\n"), 2000).ready).toBe(false);
    expect(missingReturnCap(["- status", "- a summary of risks and blockers", "- files changed", "- checks run"])).toEqual(["summary", "risks", "blockers"]);
    expect(missingReturnCap(["- Status: done or not", "* Short summary", "1. files changed", "- checks run (commands)", "- risks — open ones", "- blockers"])).toEqual([]);
    // A word only mentioned elsewhere in the brief caps nothing either.
    expect(checkDraft("brief", md.replace("- blockers\n", "").replace("- npm test -- session", "- npm test -- session (no blockers)"), 2000).issues.map((i) => i.message)).toContain(
      '.coord/context_NNN.md: the return contract does not cap "blockers" (the seed\'s return cap: status, summary, files changed, checks run, risks, blockers)',
    );
  });

  it("asks for the brief's interfaces, non-empty evidence, and who made each recorded decision", async () => {
    const snapshot = await readCoord(tmp);
    const md = fill(draftTaskBrief(snapshot, "define-auth-contract"));
    expect(md).toMatch(/\nInterfaces\n- src\/auth\/SessionService\.ts/);
    const blocks = (text: string, opts = {}) =>
      checkDraft("brief", text, 2000, opts)
        .issues.filter((i) => i.severity !== "warning")
        .map((i) => i.message);
    expect(blocks(md)).toEqual([]);
    expect(blocks(md.replace(/Interfaces\n- .*\n/, ""))).toEqual(['.coord/context_NNN.md: missing section "Interfaces" (the relevant interfaces or schemas, or "none")']);
    expect(blocks(md.replace(/Interfaces\n- .*\n/, "Interfaces\n"))).toEqual(['.coord/context_NNN.md: section "Interfaces" is empty (write "none" when no interface or schema is relevant)']);
    expect(blocks(md.replace(/Interfaces\n- .*\n/, "Interfaces\n- none\n"))).toEqual([]);

    const noEvidence = md.replace(/Evidence\n(- .*\n)+/, "Evidence\n\n");
    expect(blocks(noEvidence)).toEqual([expect.stringMatching(/^\.coord\/context_NNN\.md:\d+: section "Evidence" is empty/)]);

    const anonymous = md.replace(/Recorded decisions\n/, "Recorded decisions\n- H3 / approve / " + "b".repeat(64) + "\n");
    expect(blocks(anonymous)).toEqual([expect.stringMatching(/decision does not name who made it \(human:<key_id> or a recorded actor\): - H3 \/ approve/)]);
    // An actor the records name counts as well as human:<id>.
    const byAgent = md.replace(/Recorded decisions\n/, "Recorded decisions\n- H3 / agent:planner / approve / " + "b".repeat(64) + "\n");
    expect(blocks(byAgent)).toHaveLength(1);
    expect(blocks(byAgent, { actors: ["agent:planner"] })).toEqual([]);
    expect(recordedActors(snapshot)).toContain("human:priya");

    // A decision written a field per line names its actor once, for the whole entry.
    const fieldPerLine = md.replace(/Recorded decisions\n/, "Recorded decisions\n- gate: memory-apply\n  actor: human:ana\n  decision: approve\n- gate: spawn\n  decision: approve\n");
    expect(blocks(fieldPerLine)).toEqual([expect.stringMatching(/decision does not name who made it .*: - gate: spawn$/)]);
  });

  it("reads generics and code spans in a brief as code, not as placeholders left to fill", async () => {
    const snapshot = await readCoord(tmp);
    const md = fill(draftTaskBrief(snapshot, "define-auth-contract")).replace(/Interfaces\n- .*\n/, "Interfaces\n- SessionService.revokeAll(userId): Promise<Result>\n- `Map<string, Session>` keyed by id\n");
    const messages = checkDraft("brief", md, 2000).issues.map((i) => i.message);
    expect(messages.filter((m) => /placeholder/.test(m))).toEqual([]);
    expect(checkDraft("brief", md.replace("Promise<Result>", "<return type>"), 2000).issues.map((i) => i.message)).toContainEqual(expect.stringMatching(/placeholder <return type> still to fill in/));
  });

  it("requires each primer topic under its own title, non-empty, with who made each decision", async () => {
    const filled = draftPrimer(await readCoord(tmp))
      .replace("- <what this work is for>", "- exports survive restarts")
      .replace("- <the next concrete action>", "- approve the pending proposal");
    const blocks = (text: string) =>
      checkDraft("primer", text, 1000)
        .issues.filter((i) => i.severity !== "warning")
        .map((i) => [i.field, i.message]);
    expect(blocks(filled)).toEqual([]);
    // A topic mentioned in passing is not a section: the open questions are still missing.
    const noQuestions = filled.replace(/## Open questions\n(- .*\n)+/, "## Notes\nSome questions remain.\n");
    expect(checkDraft("primer", noQuestions, 1000).ready).toBe(false);
    expect(blocks(noQuestions)).toEqual([["open questions", expect.stringContaining('the primer has no "Open questions" section')]]);
    const emptyNext = filled.replace("- approve the pending proposal\n", "");
    expect(blocks(emptyNext)).toEqual([["next step", expect.stringMatching(/:\d+: section "Next step" is empty/)]]);
    const anonymous = filled.replace("## Decisions and who made them\n", "## Decisions and who made them\n- Exports are built by the worker.\n");
    expect(blocks(anonymous)).toEqual([["decisions", expect.stringContaining("decision does not name who made it")]]);
    // Titles may also be written "Topic: text" on one line.
    expect(blocks("Goal: ship exports.\nCurrent state: T1 done.\nDecisions: M1 (human:priya).\nOpen questions: none.\nEvidence: docs/x.md\nNext step: T2.\n")).toEqual([]);
  });
});
