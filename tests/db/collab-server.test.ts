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
import { collabClient, freePort, stop, textOf, until } from "../helpers/collab-client";
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

  it("does not double an opened but never edited document when its client reconnects after a crash", async () => {
    const untouched = (await createProjectPacket((await addProject({ path: makeTempDir() })).id, { markdown: "## Context Packet\n\n**Task**: Seed once\n" })).id;
    let server = await startServer(port);
    const a = collabClient(port, untouched);
    try {
      await a.synced;
      const seeded = a.text.toString();
      expect(seeded).toBe("## Context Packet\n\n**Task**: Seed once\n");
      await stop(server);
      server = await startServer(port);
      // A second client loads the document from the database; the first one reconnects with its copy.
      const b = collabClient(port, untouched);
      try {
        await b.synced;
        a.text.insert(a.text.length, "**Parent**: after restart\n");
        await until("both see the edit made after the restart", () => b.text.toString().includes("after restart"));
        expect(b.text.toString()).toBe(`${seeded}**Parent**: after restart\n`);
        expect(a.text.toString()).toBe(b.text.toString());
      } finally {
        b.close();
      }
    } finally {
      a.close();
      await stop(server);
    }
  });

  it("keeps every acknowledged keystroke when the server is killed while someone is typing", async () => {
    const typed = (await createProjectPacket((await addProject({ path: makeTempDir() })).id, { markdown: "## Context Packet\n\n**Task**: Type fast\n" })).id;
    const server = await startServer(port);
    const a = collabClient(port, typed);
    /** The text after each keystroke, by the client's own clock then. */
    const textAtClock = new Map<number, string>();
    let n = 0;
    let timer: NodeJS.Timeout | undefined;
    try {
      await a.synced;
      timer = setInterval(() => {
        a.text.insert(a.text.length, `m${n++};`);
        textAtClock.set(Y.getState(a.doc.store, a.doc.clientID), a.text.toString());
      }, 15);
      await until("three stores while typing", () => a.storedClocks.filter((c) => c > 0).length >= 3);
      await stop(server);
      clearInterval(timer);
      // The newest keystroke the server said it stored, and the text as it was then.
      const clock = Math.max(...a.storedClocks);
      const acknowledged = [...textAtClock].filter(([c]) => c <= clock).sort((x, y) => y[0] - x[0])[0]![1];
      expect(n).toBeGreaterThan(Number(/m(\d+);$/.exec(acknowledged)![1]) + 1);
      const persisted = textOf((await loadDocState(typed))!);
      expect(persisted.startsWith(acknowledged)).toBe(true);
    } finally {
      clearInterval(timer);
      a.close();
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
