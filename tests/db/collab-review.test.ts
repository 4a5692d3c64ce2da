import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db/client";
import { commentOnPacket, reviewPacket, packetComments, packetSnapshot, packetSnapshots, resolveThread, reviewHistory, reviewHistoryMarkdown, snapshotPacket } from "../../lib/collab/service";
import { createProjectPacket } from "../../lib/packets/service";
import { addProject } from "../../lib/projects/add-project";
import { makeTempDir, removeTempDirs } from "../helpers/project-builder";

afterAll(removeTempDirs);

describe("review comments and snapshots", () => {
  let projectId = "";
  let packetId = "";
  beforeAll(async () => {
    projectId = (await addProject({ path: makeTempDir() })).id;
    packetId = (await createProjectPacket(projectId, { kind: "brief" })).id;
  });

  it("keeps the Yjs anchors a quoted comment follows edits by, and refuses malformed ones naming the field", async () => {
    const other = await createProjectPacket(projectId, { markdown: "## Agent Brief\n\n**Summary:** Exports stop\n" });
    const anchored = await commentOnPacket(projectId, other.id, { quote: "stop", anchorFrom: 18, anchorTo: 22, anchorStart: "AQKFt5/KDQA=", anchorEnd: "AQKFt5/KDQP/", body: "moves with the text", author: "Cy" });
    expect(anchored).toMatchObject({ anchorStart: "AQKFt5/KDQA=", anchorEnd: "AQKFt5/KDQP/" });
    expect((await packetComments(projectId, other.id))[0]).toMatchObject({ anchorStart: "AQKFt5/KDQA=", anchorEnd: "AQKFt5/KDQP/" });
    await expect(commentOnPacket(projectId, other.id, { quote: "q", anchorStart: "<script>", body: "x", author: "Ana" })).rejects.toMatchObject({ code: "INVALID_INPUT", message: expect.stringContaining("anchorStart") });
  });

  it("threads comments anchored to a section or a range, and resolves a whole thread", async () => {
    const root = await commentOnPacket(projectId, packetId, { section: "Desired behavior", body: "Say what the user sees.", author: "Ana" });
    expect(root.threadId).toBe(root.id);
    const reply = await commentOnPacket(projectId, packetId, { threadId: root.id, body: "Done.", author: "Ben" });
    expect(reply.threadId).toBe(root.id);
    const ranged = await commentOnPacket(projectId, packetId, { quote: "Exports stop", anchorFrom: 10, anchorTo: 22, body: "Which exports?", author: "Cy" });
    expect(ranged).toMatchObject({ quote: "Exports stop", anchorFrom: 10, anchorTo: 22, section: null });

    await expect(commentOnPacket(projectId, packetId, { body: "floating", author: "Ana" })).rejects.toThrow(/section or a quoted text range/);
    await expect(commentOnPacket(projectId, packetId, { section: "x", body: "  ", author: "Ana" })).rejects.toThrow(/empty/);
    await expect(commentOnPacket(projectId, packetId, { threadId: "nope", body: "x", author: "Ana" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(commentOnPacket(projectId, packetId, { quote: "q", anchorFrom: 5, anchorTo: 2, body: "x", author: "Ana" })).rejects.toThrow(/anchorTo/);

    const after = await resolveThread(projectId, packetId, root.id, { resolved: true, actor: "Ana" });
    expect(after.filter((c) => c.threadId === root.id).every((c) => c.resolved && c.resolvedBy === "Ana")).toBe(true);
    expect(after.find((c) => c.id === ranged.id)!.resolved).toBe(false);
    expect((await packetComments(projectId, packetId)).map((c) => c.author)).toEqual(["Ana", "Ben", "Cy"]);

    const h = await reviewHistory(projectId, packetId);
    expect(h.threads.map((t) => [t.section, t.quote, t.resolved, t.comments.length])).toEqual([
      ["Desired behavior", null, true, 2],
      [null, "Exports stop", false, 1],
    ]);
    const md = reviewHistoryMarkdown(h);
    expect(md).toContain("### Section: Desired behavior (resolved by Ana at");
    expect(md).toContain("> Exports stop");
    expect(md).toContain("- **Ben** (");
  });

  it("keeps named snapshots to compare and restore", async () => {
    const s1 = await snapshotPacket(projectId, packetId, { name: "before review", markdown: "## Agent Brief\n", author: "Ana" });
    await snapshotPacket(projectId, packetId, { name: "after review", markdown: "## Agent Brief\n\n**Category:** bug\n", author: null });
    expect((await packetSnapshots(projectId, packetId)).map((s) => s.name)).toEqual(["after review", "before review"]);
    expect((await packetSnapshot(projectId, packetId, s1.id)).markdown).toBe("## Agent Brief\n");
    await expect(snapshotPacket(projectId, packetId, { name: " ", markdown: "x" })).rejects.toThrow(/name/);
    await expect(packetSnapshot(projectId, packetId, "missing")).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("an approval is judged by the rules now, not by the BLOCK count stored when the revision was saved", async () => {
    const db = await getDb();
    const fixture = (name: string) => fs.readFileSync(path.join(import.meta.dirname, "..", "fixtures", "packets", name), "utf8");
    // The reference's own bug brief: only WARN findings today (behaviour verbs off the whitelist used to block).
    const brief = await createProjectPacket(projectId, { kind: "brief", markdown: fixture("reference-bug-brief.md") });
    await db.packetRevision.updateMany({ where: { packetId: brief.id }, data: { blockCount: 2 } });
    await reviewPacket(projectId, brief.id, { action: "request_review", actor: "Ana" });
    const approved = await reviewPacket(projectId, brief.id, { action: "approve", actor: "Ben", revision: 1 });
    expect(approved.packet.reviewStatus).toBe("approved");
    expect((await db.packet.findUnique({ where: { id: brief.id } }))?.approvedNumber).toBe(1);

    // And the other way: a stored zero does not let a revision with a BLOCK finding through.
    const failing = await createProjectPacket(projectId, { markdown: fixture("failing-packet.md") });
    await db.packetRevision.updateMany({ where: { packetId: failing.id }, data: { blockCount: 0 } });
    await reviewPacket(projectId, failing.id, { action: "request_review", actor: "Ana" });
    await expect(reviewPacket(projectId, failing.id, { action: "approve", actor: "Ben", revision: 1 })).rejects.toMatchObject({ code: "GATE_REFUSED" });
    expect((await db.packet.findUnique({ where: { id: failing.id } }))?.reviewStatus).toBe("in_review");
  });
});
