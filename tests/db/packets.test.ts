import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db/client";
import {
  createProjectPacket,
  diffRevisions,
  duplicateProjectPacket,
  emitProjectPacket,
  getPacket,
  getRevision,
  handoffPacket,
  listPackets,
  listRevisions,
  saveProjectPacket,
  updateProjectPacket,
} from "../../lib/packets/service";
import { reviewHistory, reviewHistoryMarkdown, reviewPacket } from "../../lib/collab/service";
import { GET as handoffRoute } from "../../app/api/v1/packets/[packetId]/route";
import { addProject } from "../../lib/projects/add-project";
import { makeTempDir, removeTempDirs } from "../helpers/project-builder";

afterAll(removeTempDirs);

/** A clean Context Packet; FAILING adds a file:line reference to it. */
const CLEAN_PACKET = fs.readFileSync(path.resolve(import.meta.dirname, "../fixtures/packets/export-jobs.md"), "utf8");

const FAILING = CLEAN_PACKET.replace("- in-memory retry list — lost on every deploy", "- in-memory retry list in queue.ts:42 — lost on every deploy");

describe("packets", () => {
  let projectId = "";
  beforeAll(async () => {
    projectId = (await addProject({ path: makeTempDir() })).id;
  });

  it("creates from a template, saves revisions, refuses a stale base, and diffs", async () => {
    const p = await createProjectPacket(projectId, { kind: "packet" });
    expect(p).toMatchObject({ kind: "packet", headNumber: 1, emittedNumber: null, title: "Untitled packet" });
    expect(p.markdown).toContain("## Context Packet");
    // The template is not emittable until filled in.
    expect(p.head!.blockCount).toBeGreaterThan(0);

    const saved = await saveProjectPacket(projectId, p.id, { markdown: FAILING, baseNumber: 1, author: "Ana" });
    expect(saved.packet.headNumber).toBe(2);
    expect(saved.validation.emittable).toBe(false);
    await expect(saveProjectPacket(projectId, p.id, { markdown: CLEAN_PACKET, baseNumber: 1 })).rejects.toMatchObject({ code: "CONFLICT" });
    const clean = await saveProjectPacket(projectId, p.id, { markdown: CLEAN_PACKET, baseNumber: 2, author: "Ana", note: "fixed file:line" });
    expect(clean.validation.emittable).toBe(true);
    expect(clean.packet.head).toMatchObject({ blockCount: 0 });

    const revs = await listRevisions(projectId, p.id);
    expect(revs.map((r) => [r.number, r.author])).toEqual([
      [3, "Ana"],
      [2, "Ana"],
      [1, null],
    ]);
    expect((await getRevision(projectId, p.id, 2)).markdown).toBe(FAILING);
    const d = await diffRevisions(projectId, p.id, 2, 3);
    expect(d).toMatchObject({ added: 1, removed: 1 });
    expect(d.hunks[0]!.lines).toContain("-- in-memory retry list in queue.ts:42 — lost on every deploy");
    expect(d.hunks[0]!.lines).toContain("+- in-memory retry list — lost on every deploy");
    await expect(getRevision(projectId, p.id, 9)).rejects.toMatchObject({ code: "NOT_FOUND" });

    const db = await getDb();
    expect(await db.packetRevision.count({ where: { packetId: p.id } })).toBe(3);
  });

  it("emits only an approved revision without BLOCK findings, and hands that revision off", async () => {
    const p = await createProjectPacket(projectId, { markdown: FAILING, title: "Export jobs" });
    await expect(emitProjectPacket(projectId, p.id)).rejects.toMatchObject({ code: "GATE_REFUSED", message: expect.stringContaining("approved") });
    await expect(handoffPacket(p.id)).rejects.toMatchObject({ code: "NOT_EMITTED" });
    await reviewPacket(projectId, p.id, { action: "request_review", actor: "Ana" });
    // A revision with a BLOCK finding cannot be approved.
    await expect(reviewPacket(projectId, p.id, { action: "approve", actor: "Ben", revision: 1 })).rejects.toMatchObject({ code: "GATE_REFUSED" });
    await reviewPacket(projectId, p.id, { action: "request_changes", actor: "Ben", note: "drop the file:line", revision: 1 });
    await expect(reviewPacket(projectId, p.id, { action: "approve", actor: "Ben", revision: 1 })).rejects.toMatchObject({ code: "CONFLICT" });

    await saveProjectPacket(projectId, p.id, { markdown: CLEAN_PACKET, baseNumber: 1, author: "Ana" });
    await reviewPacket(projectId, p.id, { action: "request_review", actor: "Ana" });
    const approved = await reviewPacket(projectId, p.id, { action: "approve", actor: "Ben", note: "good", revision: 2 });
    expect(approved.packet).toMatchObject({ reviewStatus: "approved", approvedNumber: 2 });
    const { packet } = await emitProjectPacket(projectId, p.id);
    expect(packet.emittedNumber).toBe(2);

    // A later save starts a new revision that needs review again; the approved one stays frozen.
    const later = await saveProjectPacket(projectId, p.id, { markdown: FAILING, baseNumber: 2, author: "Cy" });
    expect(later.packet).toMatchObject({ reviewStatus: "draft", approvedNumber: 2, headNumber: 3 });
    const { packet: again } = await emitProjectPacket(projectId, p.id);
    expect(again.emittedNumber).toBe(2);
    const h = await handoffPacket(p.id);
    expect(h.revision).toBe(2);
    expect(h.markdown).toBe(CLEAN_PACKET);
    expect(Object.keys(h.result)).toEqual(["packet", "token_estimate", "completeness", "warnings"]);
    expect(h.result.token_estimate).toBeGreaterThan(50);

    // The handoff URL: markdown by default, JSON for ?format=json or Accept: application/json.
    const get = (query: string, accept?: string) =>
      handoffRoute(new Request(`http://127.0.0.1:3999/api/v1/packets/${p.id}${query}`, { headers: accept ? { accept } : {} }), { params: Promise.resolve({ packetId: p.id }) });
    const asMarkdown = await get("", "text/html,*/*;q=0.8");
    expect(asMarkdown.headers.get("content-type")).toContain("text/markdown");
    expect(await asMarkdown.text()).toBe(CLEAN_PACKET);
    for (const res of [await get("?format=json"), await get("", "application/json")]) {
      expect(res.headers.get("content-type")).toContain("application/json");
      expect(res.headers.get("vary")).toBe("accept");
      expect(await res.json()).toMatchObject({ revision: 2, packet: CLEAN_PACKET, token_estimate: h.result.token_estimate });
    }
    expect((await get("?format=md", "application/json")).headers.get("content-type")).toContain("text/markdown");

    const history = await reviewHistory(projectId, p.id);
    expect(history.events.map((e) => [e.actor, e.fromStatus, e.toStatus, e.revision])).toEqual([
      ["Ana", "draft", "in_review", 1],
      ["Ben", "in_review", "changes_requested", 1],
      ["Ana", "changes_requested", "in_review", 2],
      ["Ben", "in_review", "approved", 2],
      ["Cy", "approved", "draft", 3],
    ]);
    const md = reviewHistoryMarkdown(history);
    expect(md).toContain("Ben: in_review → changes_requested on r1 — drop the file:line");
    expect(md).toContain("(approved revision r2)");
  });

  it("answers at the handoff URL a packet that exists but was not emitted with its review state (409), and 404 only when there is none (issue 30)", async () => {
    const get = (id: string) => handoffRoute(new Request(`http://127.0.0.1:3999/api/v1/packets/${id}`), { params: Promise.resolve({ packetId: id }) });
    const p = await createProjectPacket(projectId, { markdown: CLEAN_PACKET, title: "Handoff states" });
    const notEmitted = async (state: string, next: RegExp) => {
      const res = await get(p.id);
      const { error } = (await res.json()) as { error: { code: string; message: string } };
      expect([res.status, error.code]).toEqual([409, "NOT_EMITTED"]);
      expect(error.message).toContain(`Packet ${p.id} exists but has not been emitted for handoff (${state}).`);
      expect(error.message).toMatch(next);
      await expect(handoffPacket(p.id)).rejects.toMatchObject({ code: "NOT_EMITTED", message: error.message });
    };
    const emitHint = new RegExp(`an editor emits it \\(Emit on the packet's page, or POST /api/v1/projects/${projectId}/packets/${p.id}/emit\\)`);

    await notEmitted("review status: draft, latest revision 1", /Nobody has approved it yet: request a review/);
    await reviewPacket(projectId, p.id, { action: "request_review", actor: "Ana" });
    await notEmitted("review status: in_review, latest revision 1", /Revision 1 waits for a reviewer's decision/);
    await reviewPacket(projectId, p.id, { action: "request_changes", actor: "Ben", note: "say why", revision: 1 });
    await notEmitted("review status: changes_requested, latest revision 1", /A reviewer requested changes: revise it and request a review again/);
    await saveProjectPacket(projectId, p.id, { markdown: `${CLEAN_PACKET}\n`, baseNumber: 1, author: "Ana" });
    await reviewPacket(projectId, p.id, { action: "request_review", actor: "Ana" });
    await reviewPacket(projectId, p.id, { action: "approve", actor: "Ben", revision: 2 });
    // The case: approved, so it exists and can be handed off, but nobody emitted it yet.
    await notEmitted("review status: approved, latest revision 2, approved revision 2", emitHint);
    await saveProjectPacket(projectId, p.id, { markdown: FAILING, baseNumber: 2, author: "Cy" });
    await notEmitted("review status: draft, latest revision 3, approved revision 2", /Revision 2 is approved and can be handed off: an editor emits it/);

    await emitProjectPacket(projectId, p.id);
    const emitted = await get(p.id);
    expect([emitted.status, emitted.headers.get("x-packet-revision"), await emitted.text()]).toEqual([200, "2", `${CLEAN_PACKET}\n`]);

    const missing = await get("no-such-packet");
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe("NOT_FOUND");
  });

  it("approves only the revision the reviewer read, and a withdrawn approval cannot be emitted", async () => {
    const p = await createProjectPacket(projectId, { markdown: CLEAN_PACKET, title: "Pinned review" });
    await reviewPacket(projectId, p.id, { action: "request_review", actor: "Ana" });
    // A decision must name its revision.
    await expect(reviewPacket(projectId, p.id, { action: "approve", actor: "Ben" })).rejects.toMatchObject({ code: "INVALID_INPUT" });
    // Someone saves r2 while Ben reads r1: approving r1 is refused and nothing changes.
    await saveProjectPacket(projectId, p.id, { markdown: `${CLEAN_PACKET}\n`, baseNumber: 1, author: "Cy" });
    await expect(reviewPacket(projectId, p.id, { action: "approve", actor: "Ben", revision: 1 })).rejects.toMatchObject({ code: "CONFLICT", message: expect.stringContaining("r2") });
    await expect(reviewPacket(projectId, p.id, { action: "request_changes", actor: "Ben", revision: 1 })).rejects.toMatchObject({ code: "CONFLICT" });
    expect((await reviewHistory(projectId, p.id)).packet).toMatchObject({ reviewStatus: "in_review", approvedNumber: null });
    const ok = await reviewPacket(projectId, p.id, { action: "approve", actor: "Ben", revision: 2 });
    expect(ok.packet).toMatchObject({ reviewStatus: "approved", approvedNumber: 2 });

    const back = await reviewPacket(projectId, p.id, { action: "withdraw", actor: "Ben", note: "not yet" });
    expect(back.packet).toMatchObject({ reviewStatus: "draft", approvedNumber: null });
    await expect(emitProjectPacket(projectId, p.id)).rejects.toMatchObject({ code: "GATE_REFUSED" });
  });

  it("imports a brief by its heading, duplicates, archives and links a topic", async () => {
    const brief = "## Agent Brief\n\n**Category:** bug\n**Summary:** Exports stop after a restart\n";
    const b = await createProjectPacket(projectId, { markdown: brief, topicSlug: "JIRA-123" });
    expect(b).toMatchObject({ kind: "brief", title: "Exports stop after a restart", topicSlug: "JIRA-123" });
    const copy = await duplicateProjectPacket(projectId, b.id, "Ben");
    expect(copy).toMatchObject({ title: "Copy of Exports stop after a restart", markdown: brief, headNumber: 1 });
    await updateProjectPacket(projectId, b.id, { archived: true });
    expect((await listPackets(projectId)).map((x) => x.id)).not.toContain(b.id);
    expect((await listPackets(projectId, { archived: true })).map((x) => x.id)).toEqual([b.id]);
    await expect(createProjectPacket(projectId, { markdown: "x".repeat(200_001) })).rejects.toThrow(/200,000/);
    await expect(getPacket(projectId, "missing")).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("saves the delegated task's size with each revision: kept when a save omits it, cleared by null, copied, and used by emit", async () => {
    // A packet of 300+ tokens without its Type Surface: it passes only for a task under 300 tokens.
    const md = fs.readFileSync(path.resolve(import.meta.dirname, "../fixtures/packets/clean-packet.md"), "utf8").replace(/### Type Surface[^\n]*\n(?:- [^\n]*\n)+\n/, "");
    const p = await createProjectPacket(projectId, { markdown: md, title: "Sized", taskTokens: 120 });
    expect(p).toMatchObject({ taskTokens: 120, head: { blockCount: 0 } });
    const kept = await saveProjectPacket(projectId, p.id, { markdown: `${md}\n`, baseNumber: 1, author: "Ana" });
    expect(kept.packet.taskTokens).toBe(120);
    expect(kept.validation).toMatchObject({ task_tokens: 120, task_tokens_source: "caller", emittable: true });
    await reviewPacket(projectId, p.id, { action: "request_review", actor: "Ana" });
    await reviewPacket(projectId, p.id, { action: "approve", actor: "Ben", revision: 2 });

    const cleared = await saveProjectPacket(projectId, p.id, { markdown: `${md}\n`, baseNumber: 2, author: "Ana", taskTokens: null });
    expect(cleared.packet).toMatchObject({ taskTokens: null, head: { blockCount: 1 }, approvedNumber: 2 });
    expect(cleared.validation).toMatchObject({ task_tokens_source: "packet", emittable: false });
    const larger = await saveProjectPacket(projectId, p.id, { markdown: `${md}\n`, baseNumber: 3, taskTokens: 450 });
    expect(larger.validation.findings.filter((f) => f.tier === "BLOCK").map((f) => f.rule)).toEqual(["missing-type-surface"]);
    expect((await listRevisions(projectId, p.id)).map((r) => [r.number, r.taskTokens, r.blockCount])).toEqual([
      [4, 450, 1],
      [3, null, 1],
      [2, 120, 0],
      [1, 120, 0],
    ]);
    expect((await getRevision(projectId, p.id, 2)).taskTokens).toBe(120);
    const db = await getDb();
    expect((await db.packetRevision.findMany({ where: { packetId: p.id }, orderBy: { number: "asc" }, select: { taskTokens: true } })).map((r) => r.taskTokens)).toEqual([120, 120, null, 450]);

    // Emit re-checks the approved revision with the size it was saved with, not the latest one.
    const { packet, validation } = await emitProjectPacket(projectId, p.id);
    expect(packet.emittedNumber).toBe(2);
    expect(validation).toMatchObject({ task_tokens: 120, emittable: true });

    const copy = await duplicateProjectPacket(projectId, p.id, "Ben");
    expect(copy).toMatchObject({ taskTokens: 450, head: { blockCount: 1 } });
    await expect(saveProjectPacket(projectId, p.id, { markdown: md, baseNumber: 4, taskTokens: -3 })).rejects.toThrow();
  });
});
