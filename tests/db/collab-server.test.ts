import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { HocuspocusProvider, HocuspocusProviderWebsocket } from "@hocuspocus/provider";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import * as Y from "yjs";
import { loadDocState } from "../../lib/db/repositories/collab";
import { markdownText } from "../../lib/collab/shared-text";
import { createProjectPacket } from "../../lib/packets/service";
import { deleteProject } from "../../lib/db/repositories/projects";
import { addProject } from "../../lib/projects/add-project";
import { collabClient, freePort, stop, until } from "../helpers/collab-client";
import { makeTempDir, removeTempDirs } from "../helpers/project-builder";

afterAll(removeTempDirs);

const root = path.resolve(import.meta.dirname, "../..");

/** The co-editing server in its own process (so it can be killed), on the test's database. */
async function startServer(port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(root, "scripts/collab-server.ts"), String(port)], {
    cwd: root,
    env: { ...process.env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (d: Buffer) => d.toString().includes("listening") && resolve());
    child.once("exit", (code) => reject(new Error(`collab server exited with ${code}`)));
  });
  return child;
}

describe("co-editing server", () => {
  let packetId = "";
  let port = 0;
  beforeAll(async () => {
    const project = await addProject({ path: makeTempDir() });
    packetId = (await createProjectPacket(project.id, { markdown: "## Context Packet\n\n**Task**: Persist export jobs\n" })).id;
    port = await freePort();
  });

  it("starts a document from the saved revision, merges two clients, and keeps stored edits across a crash", async () => {
    let server = await startServer(port);
    const a = collabClient(port, packetId);
    const b = collabClient(port, packetId);
    try {
      await Promise.all([a.synced, b.synced]);
      expect(a.text.toString()).toBe("## Context Packet\n\n**Task**: Persist export jobs\n");
      a.text.insert(a.text.length, "**Parent**: cook\n");
      b.text.insert(0, "<!-- b -->\n");
      await until("both clients see both edits", () => a.text.toString() === b.text.toString() && a.text.toString().includes("cook") && a.text.toString().includes("<!-- b -->"));
      // "stored" arrives only after the database holds the document.
      await until("the server reports a store", () => a.stored.length > 0 && b.stored.length > 0);
      const acknowledged = a.text.toString();

      await stop(server);
      const persisted = await loadDocState(packetId);
      const check = new Y.Doc();
      Y.applyUpdate(check, persisted!);
      expect(markdownText(check).toString()).toBe(acknowledged);

      // Offline edits while the server is down merge when it is back.
      a.text.insert(a.text.length, "**Scope**: ExportJob\n");
      server = await startServer(port);
      await until("a reconnects and b receives the offline edit", () => b.text.toString().includes("**Scope**: ExportJob"));
      expect(b.text.toString()).toBe(a.text.toString());

      // A fresh client after the restart gets everything.
      const c = collabClient(port, packetId);
      await c.synced;
      await until("the fresh client has the merged text", () => c.text.toString() === a.text.toString());
      c.close();
    } finally {
      a.close();
      b.close();
      await stop(server);
    }
  });

  it("keeps serving when a packet is deleted while someone edits it, and disconnects that editor", async () => {
    const doomed = await addProject({ path: makeTempDir() });
    const doomedPacket = (await createProjectPacket(doomed.id, { markdown: "## Context Packet\n\n**Task**: Doomed\n" })).id;
    const server = await startServer(port);
    const gone = collabClient(port, doomedPacket);
    let closed = false;
    gone.provider.on("close", () => (closed = true));
    try {
      await gone.synced;
      await deleteProject(doomed.id);
      gone.text.insert(gone.text.length, "typed after the delete\n");
      await until("the deleted packet's editor is disconnected", () => closed);
      expect(gone.stored).toEqual([]);
      expect(server.exitCode).toBeNull();

      // Everyone else keeps co-editing and storing.
      const other = collabClient(port, packetId);
      try {
        await other.synced;
        other.text.insert(0, "<!-- still here -->\n");
        await until("the surviving packet is stored", () => other.stored.length > 0);
      } finally {
        other.close();
      }
    } finally {
      gone.close();
      await stop(server);
    }
  });

  it("refuses a document that is not a packet", async () => {
    const server = await startServer(port);
    const failed = new Promise<string>((resolve) => {
      const socket = new HocuspocusProviderWebsocket({ url: `ws://127.0.0.1:${port}`, WebSocketPolyfill: WebSocket });
      const p = new HocuspocusProvider({ websocketProvider: socket, name: "packet:does-not-exist", document: new Y.Doc(), onAuthenticationFailed: ({ reason }) => (resolve(reason), p.destroy(), socket.destroy()) });
      p.attach();
    });
    try {
      expect(await failed).toBeTruthy();
    } finally {
      await stop(server);
    }
  });
});
