/**
 * Team mode on the co-editing socket after a role change: the role is checked on every document
 * message, not only when a connection authenticates, so an editor removed from the project (or
 * made a viewer) stops writing through the socket they already hold. And no client may
 * broadcast: a forged `{"type":"stored"}` would make editors show "saved" for edits the database
 * does not hold.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as encoding from "lib0/encoding";
import WebSocket from "ws";
import * as Y from "yjs";
import { issueCollabToken } from "../../lib/auth/collab-token";
import { startCollabServer } from "../../lib/collab/server";
import { removeMember, setMember } from "../../lib/db/repositories/accounts";
import { loadDocState } from "../../lib/db/repositories/collab";
import { packetProject } from "../../lib/db/repositories/packets";
import { AUTH, collabClient, freePort, MESSAGE, newPacket, readServerMessage, textOf, until } from "../helpers/collab-client";
import { removeTempDirs } from "../helpers/project-builder";
import { accountWithToken, enterTeamMode, leaveTeamMode, TEST_AUTH_SECRET } from "../helpers/team-mode";

describe("team mode: the co-editing socket after a role change", () => {
  let port = 0;
  let packetId = "";
  let projectId = "";
  let server: Awaited<ReturnType<typeof startCollabServer>>;
  const ids: Record<"removed" | "demoted" | "viewer" | "editor", string> = { removed: "", demoted: "", viewer: "", editor: "" };
  const tokens: Record<"removed" | "demoted" | "viewer" | "editor", string> = { removed: "", demoted: "", viewer: "", editor: "" };
  const clients: { close: () => void }[] = [];
  const client = (token: string) => {
    const c = collabClient(port, packetId, { token });
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    enterTeamMode();
    await accountWithToken("admin@example.com");
    packetId = await newPacket();
    projectId = await packetProject(packetId);
    for (const who of ["removed", "demoted", "viewer", "editor"] as const) {
      const a = await accountWithToken(`${who}@example.com`);
      ids[who] = a.id;
      await setMember(projectId, a.id, who === "viewer" ? "viewer" : "editor");
      tokens[who] = (await issueCollabToken(TEST_AUTH_SECRET, a.id)).token;
    }
    port = await freePort();
    server = await startCollabServer({ port, host: "127.0.0.1", debounce: 50, maxDebounce: 200 });
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await server.stop();
    leaveTeamMode();
    removeTempDirs();
  });

  it("stops storing edits from a member once they are removed or made a viewer", async () => {
    const removed = client(tokens.removed);
    const demoted = client(tokens.demoted);
    await Promise.all([removed.synced, demoted.synced]);
    // The server has answered everything they sent while syncing, so the next answer is the edit's.
    await until("both are in sync", () => !removed.provider.hasUnsyncedChanges && !demoted.provider.hasUnsyncedChanges);
    expect(removed.auth.readOnly).toBe(false);
    const removedAnswers = removed.acks.length;
    const demotedAnswers = demoted.acks.length;

    await removeMember(projectId, ids.removed);
    await setMember(projectId, ids.demoted, "viewer");

    removed.text.insert(0, "EDIT AFTER REMOVAL ");
    demoted.text.insert(0, "EDIT AFTER DEMOTION ");
    // The server handled both edits: it closed the removed member's connection (an answer
    // "applied" would have come before the close) and answered the demoted one "not applied".
    await until("the removed member's connection is closed", () => removed.auth.closed || removed.auth.denied !== null);
    expect(removed.acks.slice(removedAnswers)).toEqual([]);
    await until("the server answers the demoted member's edit", () => demoted.acks.length > demotedAnswers);
    expect(demoted.acks[demotedAnswers]).toBe(false);
    // A later edit by a current editor is stored.
    const editor = client(tokens.editor);
    await editor.synced;
    editor.text.insert(editor.text.length, "\nan editor's edit");
    await until("the editor's edit is stored", () => editor.stored.length > 0);
    await server.flush();
    const stored = textOf((await loadDocState(packetId))!);
    expect(stored).toContain("an editor's edit");
    expect.soft(stored).not.toContain("EDIT AFTER REMOVAL");
    expect.soft(stored).not.toContain("EDIT AFTER DEMOTION");
  });

  it("does not let a read-only viewer broadcast a forged 'stored' to the editors", async () => {
    const editor = client(tokens.editor);
    await editor.synced;
    const before = editor.stored.length;
    const forgedAt = 4_102_444_800_000;

    // A raw Hocuspocus client: authenticate as the viewer, then send BroadcastStateless (type 6).
    const ws = new WebSocket(`ws://127.0.0.1:${port}`);
    const received: ReturnType<typeof readServerMessage>[] = [];
    ws.on("message", (data: Buffer) => void received.push(readServerMessage(new Uint8Array(data))));
    await new Promise((r) => ws.once("open", r));
    const msg = (build: (e: encoding.Encoder) => void) => {
      const e = encoding.createEncoder();
      encoding.writeVarString(e, `packet:${packetId}`);
      build(e);
      return encoding.toUint8Array(e);
    };
    // MessageType.Auth = 2, AuthMessageType.Token = 0
    ws.send(msg((e) => (encoding.writeVarUint(e, 2), encoding.writeVarUint(e, 0), encoding.writeVarString(e, tokens.viewer))));
    await until("the viewer is authenticated", () => received.some((m) => m.type === MESSAGE.auth && m.auth === AUTH.authenticated));
    ws.send(msg((e) => (encoding.writeVarUint(e, 6), encoding.writeVarString(e, JSON.stringify({ type: "stored", at: forgedAt })))));
    // A broadcast goes to every connection of the document, the sender's too, in one pass: once
    // the sender has its answer (the server closing its document, or the broadcast itself), a
    // forged notice would already be on its way to the editor.
    const forged = (m: ReturnType<typeof readServerMessage>) => m.type === MESSAGE.stateless && m.payload?.includes(String(forgedAt)) === true;
    await until("the server answers the broadcast", () => received.some((m) => m.type === MESSAGE.close || forged(m)));
    ws.close();
    expect(received.filter(forged)).toEqual([]);

    // The editor's next real "stored" notice comes after anything sent to it before.
    editor.text.insert(editor.text.length, "\nafter the forged broadcast");
    await until("the editor hears its edit was stored", () => editor.storedClocks.slice(before).some((c) => c >= Y.getState(editor.doc.store, editor.doc.clientID)));
    expect(editor.stored.slice(before)).not.toContain(forgedAt);
  });
});
