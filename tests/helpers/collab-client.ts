import type { ChildProcess } from "node:child_process";
import net from "node:net";
import { HocuspocusProvider, HocuspocusProviderWebsocket } from "@hocuspocus/provider";
import * as decoding from "lib0/decoding";
import { expect } from "vitest";
import WebSocket from "ws";
import * as Y from "yjs";
import { markdownText } from "../../lib/collab/shared-text";
import { parseStoredMessage, storedClockOf } from "../../lib/collab/stored-message";
import { createProjectPacket } from "../../lib/packets/service";
import { addProject } from "../../lib/projects/add-project";
import { makeTempDir } from "./project-builder";

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** Kills a child process (a co-editing server) at once, as a crash would. */
export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGKILL");
  await exited;
}

/** Hocuspocus message types (its protocol) the tests read. */
export const MESSAGE = { auth: 2, stateless: 5, close: 7, syncStatus: 8 } as const;
/** The second number of an auth message from the server. */
export const AUTH = { permissionDenied: 1, authenticated: 2 } as const;

/** A message from a Hocuspocus server: its type, then what the tests read of it. */
export function readServerMessage(data: Uint8Array): { type: number; auth?: number; applied?: boolean; payload?: string } {
  const d = decoding.createDecoder(data);
  decoding.readVarString(d);
  const type = decoding.readVarUint(d);
  if (type === MESSAGE.auth) return { type, auth: decoding.readVarUint(d) };
  if (type === MESSAGE.syncStatus) return { type, applied: decoding.readVarInt(d) === 1 };
  if (type === MESSAGE.stateless) return { type, payload: decoding.readVarString(d) };
  return { type };
}

/**
 * A Node client of a packet's shared document, recording the server's "stored" messages and, in
 * team mode, whether the server refused it (`denied`) or made it read-only (`readOnly`).
 * `acks` holds the server's answer to each update this client sent, in order: true when it was
 * applied, false when it was refused (a read-only connection). An edit's answer is the proof
 * that the server has handled it, so a test can say what it did with it.
 */
export function collabClient(port: number, packetId: string, opts: { token?: string } = {}) {
  const doc = new Y.Doc();
  const stored: number[] = [];
  /** Per "stored" notice: this client's own clock in the stored state. */
  const storedClocks: number[] = [];
  const acks: boolean[] = [];
  const auth: { denied: string | null; readOnly: boolean | null; closed: boolean } = { denied: null, readOnly: null, closed: false };
  const socket = new HocuspocusProviderWebsocket({ url: `ws://127.0.0.1:${port}`, WebSocketPolyfill: WebSocket, delay: 50, minDelay: 50, maxDelay: 300 });
  const provider = new HocuspocusProvider({
    websocketProvider: socket,
    name: `packet:${packetId}`,
    document: doc,
    token: opts.token ?? null,
    onAuthenticationFailed: ({ reason }) => void (auth.denied = reason),
    onAuthenticated: ({ scope }) => void (auth.readOnly = scope === "readonly"),
    onClose: () => void (auth.closed = true),
    onStateless: ({ payload }) => {
      const notice = parseStoredMessage(payload);
      if (!notice) return;
      stored.push(notice.at);
      storedClocks.push(storedClockOf(notice, doc.clientID));
    },
  });
  provider.on("message", ({ event }: { event: MessageEvent }) => {
    const m = readServerMessage(new Uint8Array(event.data as ArrayBuffer));
    if (m.applied !== undefined) acks.push(m.applied);
  });
  provider.attach();
  const synced = new Promise<void>((resolve) => (provider.isSynced ? resolve() : provider.on("synced", () => resolve())));
  const close = () => {
    // A client whose server went away keeps reconnecting. ws reports closing a socket that is
    // still connecting as an 'error' event, after the provider has removed its listeners, so it
    // would surface as an uncaught exception in whatever test runs next.
    (socket as unknown as { webSocket: WebSocket | null }).webSocket?.on("error", () => undefined);
    provider.destroy();
    socket.destroy();
  };
  return { doc, text: markdownText(doc), provider, stored, storedClocks, acks, synced, auth, close };
}

export const until = async (what: string, ok: () => boolean) => {
  await expect.poll(ok, { timeout: 15_000, message: what }).toBe(true);
};

/** A packet in a project of its own. */
export async function newPacket(markdown = "## Context Packet\n\n**Task**: Persist export jobs\n"): Promise<string> {
  const project = await addProject({ path: makeTempDir() });
  return (await createProjectPacket(project.id, { markdown })).id;
}

/** The markdown a stored Yjs state holds. */
export const textOf = (state: Uint8Array) => {
  const doc = new Y.Doc();
  Y.applyUpdate(doc, state);
  return markdownText(doc).toString();
};
