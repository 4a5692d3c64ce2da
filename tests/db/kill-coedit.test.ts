/**
 * kill -9 of the co-editing server while someone types (issue 31, point 3): every keystroke the
 * server acknowledged as stored (its "stored" notice) is in the database after the kill, the
 * stored document always decodes to a prefix of what was typed (never a torn state), and the
 * restarted server answers readiness. Runs on the database of the run (SQLite, or PostgreSQL in
 * CI's second run).
 *
 * Two kinds of kill point, both spread over a typing session (tests/helpers/collab-writer.ts):
 * - a write step of the server's process (tests/helpers/kill-switch.cjs: its database
 *   statements): the kill lands before a store's read or write, or a connecting client's reads;
 * - the gap no statement marks: a store's write is done and its "stored" notice not yet sent
 *   (killed just before the n-th notice), so the database holds keystrokes nobody was told of.
 * Two sessions run side by side, each one client typing without pause into its own packet,
 * through a chain of servers: each is killed at its point, the database is checked, and the next
 * one is the restart.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { HocuspocusProvider, HocuspocusProviderWebsocket } from "@hocuspocus/provider";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import * as Y from "yjs";
import { markdownText } from "../../lib/collab/shared-text";
import { parseStoredMessage, storedClockOf } from "../../lib/collab/stored-message";
import { loadDocState } from "../../lib/db/repositories/collab";
import { readiness } from "../../lib/ops/readiness";
import { freePort, newPacket, textOf, until } from "../helpers/collab-client";
import { bundleWriter, KILL_POINTS, KILL_SWITCH, killPoints, REPO } from "../helpers/kill-points";
import { removeTempDirs } from "../helpers/project-builder";

afterAll(removeTempDirs);

const SEED = "## Context Packet\n\n**Task**: Type through crashes\n";
/**
 * A keystroke every 10 ms, each stored 5 ms later: about a hundred stores, so two hundred write
 * steps, per second of typing. A store must take less time than the gap between keystrokes:
 * past its longest wait (maxDebounce) Hocuspocus starts one more store for every update that
 * arrives while a store is running, and those stores then breed more (measured with a keystroke
 * every 2 ms and a 25 ms longest wait: the server stored the same state for 30 s and took in no
 * keystroke). The longest wait is therefore never reached while someone types.
 */
const TYPE_EVERY_MS = 10;
const DEBOUNCE = 5;
const MAX_DEBOUNCE = 2_000;
/** Kill points of each kind; together at least KILL_POINTS. */
const STEP_POINTS = 30;
const NOTICE_POINTS = 20;

/**
 * Every WebSocket the test's clients open, so none outlives the test. The provider replaces a
 * socket that is still connecting when its server dies (its retry and its close handler both
 * reconnect) after removing that socket's listeners; ws then reports the aborted handshake as
 * an 'error' event nobody listens to, an uncaught exception. Each socket here has its own
 * listener from the start, and the test asserts that every error it saw is one a killed or
 * not-yet-listening server causes.
 */
const sockets = new Set<WebSocket>();
const socketErrors: string[] = [];
class TrackedWebSocket extends WebSocket {
  constructor(...args: ConstructorParameters<typeof WebSocket>) {
    super(...args);
    sockets.add(this);
    this.on("error", (e: Error) => socketErrors.push(e.message));
    this.once("close", () => sockets.delete(this));
  }
}
/** Refused while no server listens, reset or hung up by a kill, or abandoned mid-handshake by the provider's reconnect. */
const SERVER_GONE = /ECONNREFUSED|ECONNRESET|socket hang up|WebSocket was closed before the connection was established/;

/** A Node client of a packet's shared document that reconnects quickly (the next server is up within a second). */
function client(port: number, packetId: string) {
  const doc = new Y.Doc();
  /** Per "stored" notice: this client's own clock in the stored state. */
  const storedClocks: number[] = [];
  const socket = new HocuspocusProviderWebsocket({ url: `ws://127.0.0.1:${port}`, WebSocketPolyfill: TrackedWebSocket, delay: 10, minDelay: 10, maxDelay: 50 });
  const provider = new HocuspocusProvider({
    websocketProvider: socket,
    name: `packet:${packetId}`,
    document: doc,
    onStateless: ({ payload }) => {
      const notice = parseStoredMessage(payload);
      if (notice) storedClocks.push(storedClockOf(notice, doc.clientID));
    },
  });
  provider.attach();
  const synced = new Promise<void>((resolve) => provider.on("synced", () => resolve()));
  let closed = false;
  return {
    doc,
    text: markdownText(doc),
    storedClocks,
    synced,
    close() {
      if (closed) return;
      closed = true;
      provider.destroy();
      socket.destroy();
    },
  };
}

/** Closes every socket still open or connecting (destroying a provider leaves one behind when its server was down). */
async function closeAllSockets(): Promise<void> {
  for (const s of sockets) s.terminate();
  await until("every client socket closed", () => sockets.size === 0);
}

type KillPoint = { kind: "step" | "notice"; at: number };

interface Server {
  /** Resolves true once it listens, false when it died first. */
  listening: Promise<boolean>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stop(): void;
  /** SIGKILLs it if it still runs (a failed check leaves no server behind). */
  kill(): void;
}

function startServer(file: string, port: number, kill: KillPoint | null, countFile = ""): Server {
  const child = spawn(process.execPath, ["--require", KILL_SWITCH, file, String(port), String(DEBOUNCE), String(MAX_DEBOUNCE)], {
    cwd: REPO,
    env: {
      ...process.env,
      WORKBENCH_APP_ROOT: REPO,
      WORKBENCH_KILL_AT: String(kill?.kind === "step" ? kill.at : 0),
      WORKBENCH_KILL_BEFORE_NOTICE: String(kill?.kind === "notice" ? kill.at : 0),
      WORKBENCH_KILL_COUNT: countFile,
    },
    stdio: ["pipe", "pipe", "inherit"],
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  const listening = new Promise<boolean>((resolve) => {
    child.stdout.on("data", (d: Buffer) => d.toString().includes("listening") && resolve(true));
    void exited.then(() => resolve(false));
  });
  return { listening, exited, stop: () => child.stdin.write("stop\n"), kill: () => void (child.exitCode === null && child.signalCode === null && child.kill("SIGKILL")) };
}

/**
 * One person typing "m0;m1;…" at the end of a packet's text without pause. Keystroke n is
 * acknowledged once a "stored" notice covers its clock.
 */
function typist(port: number, packetId: string) {
  const c = client(port, packetId);
  /** The client's own clock after each keystroke. */
  const clocks: number[] = [];
  let timer: NodeJS.Timeout | undefined;
  return {
    client: c,
    start() {
      timer = setInterval(() => {
        c.text.insert(c.text.length, `m${clocks.length};`);
        clocks.push(Y.getState(c.doc.store, c.doc.clientID));
      }, TYPE_EVERY_MS);
    },
    pause() {
      clearInterval(timer);
    },
    typed: () => clocks.length,
    /** How many keystrokes the server has said it stored. */
    acknowledged(): number {
      const stored = Math.max(0, ...c.storedClocks);
      let n = 0;
      while (n < clocks.length && clocks[n]! <= stored) n++;
      return n;
    },
    keystrokes: (n: number) => SEED + Array.from({ length: n }, (_, i) => `m${i};`).join(""),
  };
}

describe("kill -9 of the co-editing server while someone types", () => {
  let file = "";
  let dispose = () => undefined as void;

  beforeAll(async () => {
    ({ file, dispose } = await bundleWriter(path.join(REPO, "tests", "helpers", "collab-writer.ts")));
  }, 60_000);

  afterAll(() => dispose());

  it("keeps every acknowledged keystroke at every kill point, never stores a torn document, and answers readiness after each restart", async () => {
    // A session to count the write steps and notices of: connect, type for a while, everything stored.
    let steps = 0;
    let notices = 0;
    {
      const port = await freePort();
      const countFile = path.join(REPO, ".tmp", `kill-coedit-count-${process.pid}`);
      const server = startServer(file, port, null, countFile);
      expect(await server.listening).toBe(true);
      const t = typist(port, await newPacket(SEED));
      await t.client.synced;
      t.start();
      // Just long enough for distinct notice kill points: a longer session only makes every kill point wait longer.
      await until(`${NOTICE_POINTS + 2} stores of new keystrokes`, () => new Set(t.client.storedClocks).size >= NOTICE_POINTS + 2);
      t.pause();
      await until("every keystroke stored", () => t.acknowledged() === t.typed());
      t.client.close();
      server.stop();
      expect((await server.exited).code).toBe(0);
      steps = Number(fs.readFileSync(countFile, "utf8"));
      // Notices that announce new content (the writer's notice kill points count only those).
      notices = new Set(t.client.storedClocks).size;
      fs.rmSync(countFile);
    }
    const points: KillPoint[] = [...killPoints(steps, 31, STEP_POINTS).map((at) => ({ kind: "step" as const, at })), ...killPoints(notices, 32, NOTICE_POINTS).map((at) => ({ kind: "notice" as const, at }))];
    expect(new Set(points.map((p) => `${p.kind} ${p.at}`)).size).toBeGreaterThanOrEqual(KILL_POINTS);
    // Both kinds spread over both sessions: ordered by how far into a session each lands, dealt alternately.
    const order = points.map((p) => ({ p, f: p.at / (p.kind === "step" ? steps : notices) })).sort((a, b) => a.f - b.f);
    const seen = { atAcknowledged: 0, beyondAcknowledged: 0, diedStarting: 0 };
    const started = Date.now();

    /** One session: its points in order, each server the restart of the one before. */
    const session = async (mine: KillPoint[]) => {
      const port = await freePort();
      const packetId = await newPacket(SEED);
      const t = typist(port, packetId);
      let current: Server | null = null;
      try {
        for (const point of mine) {
          const server = (current = startServer(file, port, point));
          const where = `server killed ${point.kind === "step" ? `before step ${point.at} of ${steps}` : `before stored notice ${point.at} of ${notices}`}`;
          if (await server.listening) {
            expect((await readiness({ collab: { host: "127.0.0.1", port } })).status, `${where}: the restarted server answers readiness`).toBe("ready");
            // Typing starts once the client has the packet's text (this server may die before that).
            if (t.typed() === 0 && (await Promise.race([t.client.synced.then(() => true), server.exited.then(() => false)]))) t.start();
          } else seen.diedStarting++;
          const exit = await Promise.race([server.exited, new Promise<null>((r) => setTimeout(() => r(null), 30_000))]);
          expect(exit?.signal, `${where}: killed within 30 s of typing`).toBe("SIGKILL");
          // What the server said it stored, and what the database holds now that it is dead.
          const acknowledged = t.acknowledged();
          const state = await loadDocState(packetId);
          // No stored document yet (killed before the first client's load stored the packet's text): nothing was acknowledged.
          const stored = state ? textOf(state) : SEED;
          const m = /m(\d+);$/.exec(stored);
          const held = m ? Number(m[1]) + 1 : 0;
          // Never torn: exactly the first `held` keystrokes, as typed.
          expect(stored, `${where}: the stored document is a prefix of what was typed`).toBe(t.keystrokes(held));
          expect(held, `${where}: ${acknowledged} keystrokes were acknowledged as stored`).toBeGreaterThanOrEqual(acknowledged);
          // Killed between a store's write and its notice: that store holds keystrokes no notice covered.
          if (point.kind === "notice") expect(held, `${where}: the unannounced store holds more than was acknowledged`).toBeGreaterThan(acknowledged);
          if (held === acknowledged) seen.atAcknowledged++;
          else seen.beyondAcknowledged++;
        }
        // After the kills: a server that stays up stores everything typed, and a fresh client reads it.
        const server = (current = startServer(file, port, null));
        expect(await server.listening).toBe(true);
        expect((await readiness({ collab: { host: "127.0.0.1", port } })).status).toBe("ready");
        t.pause();
        await until("every keystroke stored after the last restart", () => t.acknowledged() === t.typed());
        const fresh = client(port, packetId);
        try {
          await fresh.synced;
          await until("a fresh client reads everything typed", () => fresh.text.toString() === t.keystrokes(t.typed()));
        } finally {
          fresh.close();
        }
        t.client.close();
        server.stop();
        expect((await server.exited).code).toBe(0);
      } finally {
        t.pause();
        t.client.close();
        current?.kill();
      }
    };
    try {
      await Promise.all([session(order.filter((_, i) => i % 2 === 0).map((o) => o.p)), session(order.filter((_, i) => i % 2 === 1).map((o) => o.p))]);
    } finally {
      await closeAllSockets();
    }
    const errorKinds: Record<string, number> = {};
    for (const kind of socketErrors.map((e) => SERVER_GONE.exec(e)?.[0] ?? e)) errorKinds[kind] = (errorKinds[kind] ?? 0) + 1;
    console.log(
      `kill -9 co-edit: ${points.length} kill points (${STEP_POINTS} of ${steps} steps, ${NOTICE_POINTS} of ${notices} stored notices) in ${Date.now() - started} ms:`,
      seen,
      "client socket errors:",
      errorKinds,
    );
    expect(socketErrors.filter((e) => !SERVER_GONE.test(e))).toEqual([]);
    // A kill before a statement lands where the database holds exactly what was acknowledged
    // (the notice goes out right after a store's write, with no statement between); a kill
    // before a notice, where it holds more.
    expect(seen.atAcknowledged).toBeGreaterThan(0);
    expect(seen.beyondAcknowledged).toBeGreaterThanOrEqual(NOTICE_POINTS);
  }, 300_000);
});
