/**
 * The co-editing server: Hocuspocus (Yjs over WebSocket) with each packet's document
 * stored in the database, debounced. A document nobody co-edited yet starts from the
 * packet's latest revision. After every store the server tells the document's clients,
 * so an editor can say "saved" only for edits the database holds.
 */
import { Database } from "@hocuspocus/extension-database";
import { Redis } from "@hocuspocus/extension-redis";
import { Server, type Extension } from "@hocuspocus/server";
import IORedis from "ioredis";
import * as decoding from "lib0/decoding";
import * as Y from "yjs";
import { roleOn } from "../auth/access";
import { verifyCollabToken } from "../auth/collab-token";
import { readAuthConfig } from "../auth/config";
import { readEnv } from "../core/env";
import { roleAtLeast, type Role } from "../auth/roles";
import { getAccount } from "../db/repositories/accounts";
import { loadDocState, packetHeadMarkdown, seedDocState, storeDocState } from "../db/repositories/collab";
import { packetProjectOrNull } from "../db/repositories/packets";
import { docFromMarkdown } from "./shared-text";
import { storedMessage } from "./stored-message";
import { storeQueue } from "./store-queue";

/** Document names are `packet:<id>`, so other kinds of shared documents can come later. */
export const packetDocName = (packetId: string) => `packet:${packetId}`;

function packetIdOf(documentName: string): string {
  const m = /^packet:([A-Za-z0-9_-]{1,64})$/.exec(documentName);
  if (!m) throw new Error(`unknown document ${JSON.stringify(documentName)}`);
  return m[1]!;
}

/** What onAuthenticate keeps on a team-mode connection, to re-check the role as messages arrive. */
interface TeamContext {
  userId: string;
  projectId: string;
}

/** Hocuspocus message types (its protocol): a document sync, and a stateless broadcast. */
const SYNC = 0;
const BROADCAST_STATELESS = 6;

/** A message's type: it follows the document name. */
function messageType(update: Uint8Array): number {
  const d = decoding.createDecoder(update);
  decoding.readVarString(d);
  return decoding.readVarUint(d);
}

/** The account's role on the project now (null: gone, or no longer a member). */
async function currentRole(userId: string, projectId: string): Promise<Role | null> {
  const account = await getAccount(userId);
  if (!account) return null;
  return roleOn({ kind: "user", userId: account.id, name: account.name, email: account.email, isAdmin: account.isAdmin, via: "session" }, projectId);
}

export interface CollabServerOptions {
  port: number;
  host: string;
  /** Store at most this long after the last change (ms)… */
  debounce?: number;
  /** …and at least this often while people keep typing (ms). */
  maxDebounce?: number;
  /** Several instances share documents and awareness through this Redis (default: REDIS_URL; none: one instance). */
  redisUrl?: string;
}

/**
 * Each instance publishes its documents' changes and awareness to the others. Its store lock is
 * dropped: an instance that loses the lock skips its store, and Hocuspocus never retries it, so
 * edits made on that instance could wait for the next one to reach the database. Every
 * instance stores instead, and storeDocState merges, so no store overwrites another.
 */
class RedisFanOut extends Redis {
  override async onStoreDocument(): Promise<void> {}
  override async afterStoreDocument(): Promise<void> {}
}

function redisExtension(url: string | undefined): Extension[] {
  if (!url) return [];
  return [new RedisFanOut({ prefix: "workbench-collab", createClient: () => new IORedis(url) })];
}

export async function startCollabServer(opts: CollabServerOptions): Promise<{ server: Server; flush: () => Promise<void>; stop: () => Promise<void> }> {
  /** What the last store of each document wrote (a full update); absent when it did not reach the database. */
  const storedStates = new Map<string, Uint8Array>();
  const stores = storeQueue<Uint8Array>(async (documentName, state) => {
    // A throw here would escape Hocuspocus's debounce as an unhandled rejection and take the
    // whole server down, so a failed store is logged and reported to nobody as "stored".
    storedStates.delete(documentName);
    try {
      if (await storeDocState(packetIdOf(documentName), state)) {
        storedStates.set(documentName, state);
        return;
      }
      closeDeleted(documentName);
    } catch (err) {
      console.error(`co-editing: could not store ${documentName}: ${(err as Error).message}`);
    }
  });
  const server = new Server({
    name: "workbench-collab",
    port: opts.port,
    address: opts.host,
    quiet: true,
    stopOnSignals: false,
    debounce: opts.debounce ?? 1000,
    maxDebounce: opts.maxDebounce ?? 5000,
    async onAuthenticate({ documentName, token, connectionConfig }) {
      const packetId = packetIdOf(documentName);
      const config = readAuthConfig();
      if (config.mode === "local") {
        // Local mode has no accounts; the only check is that the packet exists.
        if ((await packetHeadMarkdown(packetId)) === null) throw new Error("no such packet");
        return;
      }
      // Team mode: a packet the person cannot see is refused exactly like a missing one.
      const userId = await verifyCollabToken(config.secret, token);
      const projectId = await packetProjectOrNull(packetId);
      const role = userId && projectId ? await currentRole(userId, projectId) : null;
      if (!role) throw new Error("no such packet");
      // Viewers follow along live; their edits are not applied.
      if (!roleAtLeast(role, "editor")) connectionConfig.readOnly = true;
      return { userId: userId!, projectId: projectId! } satisfies TeamContext;
    },
    async beforeHandleMessage({ connection, update, context }) {
      const type = messageType(update);
      // Only the server says "stored"; a client's broadcast could tell editors their edits are safe when they are not.
      if (type === BROADCAST_STATELESS) throw new Error("clients do not broadcast on this server");
      const team = context as Partial<TeamContext>;
      if (!team.userId || !team.projectId || type !== SYNC) return;
      // Roles change while people stay connected: removed members are cut off, demoted ones stop writing.
      const role = await currentRole(team.userId, team.projectId);
      if (!role) throw new Error("no longer a member of this project");
      connection.readOnly = !roleAtLeast(role, "editor");
    },
    extensions: [
      ...redisExtension(opts.redisUrl ?? readEnv("REDIS_URL")),
      new Database({
        fetch: async ({ documentName }) => {
          const id = packetIdOf(documentName);
          const stored = await loadDocState(id);
          if (stored) return stored;
          const markdown = await packetHeadMarkdown(id);
          if (markdown === null) throw new Error(`no packet ${id}`);
          const seeded = await seedDocState(id, Y.encodeStateAsUpdate(docFromMarkdown(markdown)));
          if (seeded === null) throw new Error(`no packet ${id}`);
          return seeded;
        },
        // One store per document at a time, the newest of those waiting (see store-queue.ts).
        store: ({ documentName, state }) => stores.run(documentName, state).then(() => undefined),
      }),
    ],
    async afterStoreDocument({ document, documentName }) {
      const state = storedStates.get(documentName);
      storedStates.delete(documentName);
      if (!state) return;
      // Only this instance's clients; the state vector tells each whether its own edits made it.
      const stored = storedMessage(state, Date.now());
      for (const connection of document.getConnections()) connection.sendStateless(stored);
    },
  });
  /** A deleted packet's editors are disconnected (their provider reports it) instead of editing into the void. */
  function closeDeleted(documentName: string) {
    server.hocuspocus.closeConnections(documentName);
  }
  await server.listen();
  /** Stores every open document now (before a planned shutdown). */
  const flush = async () => {
    for (const [name, doc] of server.hocuspocus.documents) {
      if (!(await storeDocState(packetIdOf(name), Y.encodeStateAsUpdate(doc)))) closeDeleted(name);
    }
  };
  return {
    server,
    flush,
    stop: async () => {
      await flush();
      await server.destroy();
    },
  };
}
