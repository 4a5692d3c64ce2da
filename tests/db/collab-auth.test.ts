/**
 * Team mode on the co-editing socket: no token, a forged or expired token, or a packet of a project
 * the person cannot see are all refused alike; a viewer follows live but cannot edit; an editor edits.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueCollabToken } from "../../lib/auth/collab-token";
import { startCollabServer } from "../../lib/collab/server";
import { setMember } from "../../lib/db/repositories/accounts";
import { loadDocState } from "../../lib/db/repositories/collab";
import { collabClient, freePort, newPacket, textOf, until } from "../helpers/collab-client";
import { removeTempDirs } from "../helpers/project-builder";
import { accountWithToken, enterTeamMode, leaveTeamMode, TEST_AUTH_SECRET } from "../helpers/team-mode";
import { packetProject } from "../../lib/db/repositories/packets";

describe("team mode on the co-editing socket", () => {
  let port = 0;
  let packetId = "";
  let server: Awaited<ReturnType<typeof startCollabServer>>;
  const tokens: Record<"outsider" | "viewer" | "editor", string> = { outsider: "", viewer: "", editor: "" };
  const clients: { close: () => void }[] = [];
  const client = (token?: string) => {
    const c = collabClient(port, packetId, { token });
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    enterTeamMode();
    await accountWithToken("admin@example.com");
    packetId = await newPacket();
    const projectId = await packetProject(packetId);
    for (const who of ["outsider", "viewer", "editor"] as const) {
      const a = await accountWithToken(`${who}@example.com`);
      if (who !== "outsider") await setMember(projectId, a.id, who);
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

  it("refuses a connection without a token, with a forged or expired one, and to a hidden packet", async () => {
    const expired = (await issueCollabToken(TEST_AUTH_SECRET, "anyone", -60)).token;
    const forged = (await issueCollabToken("another-secret-another-secret-another", "anyone")).token;
    const cases = [client(), client("not-a-token"), client(expired), client(forged), client(tokens.outsider)];
    for (const c of cases) await until("refused", () => c.auth.denied !== null);
    expect(cases.every((c) => !c.provider.isSynced)).toBe(true);
  });

  it("lets a viewer follow read-only, and an editor edit", async () => {
    const editor = client(tokens.editor);
    const viewer = client(tokens.viewer);
    await Promise.all([editor.synced, viewer.synced]);
    expect(editor.auth.readOnly).toBe(false);
    expect(viewer.auth.readOnly).toBe(true);
    editor.text.insert(editor.text.length, "\nfrom the editor");
    await until("the viewer sees the editor's text", () => viewer.text.toString().includes("from the editor"));
    // The server has answered everything the viewer sent while syncing, so its next answer is the edit's.
    await until("the viewer is in sync", () => !viewer.provider.hasUnsyncedChanges);
    const answered = viewer.acks.length;
    viewer.text.insert(0, "VIEWER WAS HERE ");
    await until("the server answers the viewer's edit", () => viewer.acks.length > answered);
    expect(viewer.acks[answered]).toBe(false);
    await until("the editor's edit is stored", () => editor.stored.length > 0);
    await server.flush();
    const stored = textOf((await loadDocState(packetId))!);
    expect(stored).toContain("from the editor");
    expect(stored).not.toContain("VIEWER WAS HERE");
    expect(editor.text.toString()).not.toContain("VIEWER WAS HERE");
  });
});
