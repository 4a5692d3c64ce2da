/**
 * Co-editing benchmark (a script, not a vitest suite):
 *
 *   npx tsx bench/collab.bench.ts
 *
 * Starts the co-editing server (scripts/collab-server.ts, its own process, on a fresh
 * SQLite database holding one packet) and BENCH_CLIENTS (20) Hocuspocus clients in this
 * process. Every client types one character every BENCH_TYPE_MS (120 ms, a fast typist) for
 * BENCH_SECONDS (10 s), each keystroke carrying a unique marker and, as a real editor does,
 * an awareness update moving that client's cursor (y-codemirror's `cursor` field), which the
 * server relays to the 19 others. Measured:
 *   - remote-echo latency: from a keystroke until each other client's document has it,
 *     over every (keystroke, receiver) pair: p50 and p95 (target p95 <= 100 ms on loopback);
 *   - the server process's peak RSS (VmHWM from /proc) and RSS at the end;
 *   - convergence: all clients end with the same text holding every keystroke.
 * Results go to bench/out/collab.json.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { HocuspocusProvider, HocuspocusProviderWebsocket } from "@hocuspocus/provider";
import WebSocket from "ws";
import * as Y from "yjs";
import { BENCH_DIR, envInt, failure, quantile, result, resultsTable, writeResults, type BenchResult } from "./report";

const CLIENTS = envInt("BENCH_CLIENTS", 20);
const TYPE_MS = envInt("BENCH_TYPE_MS", 120);
const SECONDS = envInt("BENCH_SECONDS", 10);
const APP_ROOT = path.dirname(BENCH_DIR);
const log = (s = "") => process.stdout.write(s + "\n");

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "wb-collab-bench-"));
process.env.WORKBENCH_DATA_DIR = tmp;
process.env.DATABASE_URL = `file:${path.join(tmp, "workbench.db")}`;
const { addProject } = await import("../lib/projects/add-project");
const { createProjectPacket } = await import("../lib/packets/service");
const { closeDb } = await import("../lib/db/client");
fs.mkdirSync(path.join(tmp, "project"));
const project = await addProject({ path: path.join(tmp, "project") });
const packet = await createProjectPacket(project.id, { kind: "brief" });
await closeDb();

const port = await new Promise<number>((resolve) => {
  const s = net.createServer().listen(0, "127.0.0.1", () => {
    const p = (s.address() as net.AddressInfo).port;
    s.close(() => resolve(p));
  });
});
const server = spawn(process.execPath, ["--import", "tsx", path.join(APP_ROOT, "scripts/collab-server.ts"), String(port)], {
  cwd: APP_ROOT,
  env: { ...process.env, COLLAB_DEBOUNCE: "1000" },
  stdio: ["ignore", "pipe", "inherit"],
});
await new Promise<void>((resolve, reject) => {
  server.stdout!.on("data", (d: Buffer) => d.toString().includes("listening") && resolve());
  server.once("exit", (c) => reject(new Error(`collab server exited with ${c}`)));
});

function rssKb(field: "VmRSS" | "VmHWM"): number {
  try {
    const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(fs.readFileSync(`/proc/${server.pid}/status`, "utf8"));
    return m ? Number(m[1]) : NaN;
  } catch {
    return NaN;
  }
}

const results: BenchResult[] = [];
const sentAt = new Map<string, number>();
const latencies: number[] = [];
const clients: { doc: Y.Doc; text: Y.Text; provider: HocuspocusProvider; socket: HocuspocusProviderWebsocket }[] = [];
try {
  const baselineKb = rssKb("VmRSS");
  for (let i = 0; i < CLIENTS; i++) {
    const doc = new Y.Doc();
    const text = doc.getText("markdown");
    const socket = new HocuspocusProviderWebsocket({ url: `ws://127.0.0.1:${port}`, WebSocketPolyfill: WebSocket });
    const provider = new HocuspocusProvider({ websocketProvider: socket, name: `packet:${packet.id}`, document: doc });
    provider.attach();
    provider.setAwarenessField("user", { name: `Typist ${i}`, color: "#0ea5e9" });
    // Every remote insert of a marker is an echo; the time it took is one sample.
    text.observe((ev) => {
      if (ev.transaction.local) return;
      const now = performance.now();
      for (const d of ev.delta) {
        if (typeof d.insert !== "string") continue;
        for (const m of d.insert.matchAll(/⟨(\d+)\.(\d+)⟩/g)) {
          const t = sentAt.get(m[0]);
          if (t !== undefined && Number(m[1]) !== i) latencies.push(now - t);
        }
      }
    });
    clients.push({ doc, text, provider, socket });
  }
  await Promise.all(clients.map((c) => new Promise<void>((resolve) => (c.provider.isSynced ? resolve() : c.provider.on("synced", () => resolve())))));
  log(`${CLIENTS} clients synced; typing for ${SECONDS} s, one character per ${TYPE_MS} ms each`);

  let seq = 0;
  const markers: string[] = [];
  const timers = clients.map((c, i) =>
    setInterval(
      () => {
        const marker = `⟨${i}.${seq++}⟩`;
        markers.push(marker);
        sentAt.set(marker, performance.now());
        // Somewhere in the text, as people type in different places (never inside a marker).
        const t = c.text.toString();
        let at = Math.floor(Math.random() * (t.length + 1));
        while (at > 0 && at < t.length && t[at - 1] !== "⟩" && !(t[at] === "⟨")) at++;
        c.text.insert(at, marker);
        const cursor = Y.relativePositionToJSON(Y.createRelativePositionFromTypeIndex(c.text, at + marker.length));
        c.provider.setAwarenessField("cursor", { anchor: cursor, head: cursor });
      },
      TYPE_MS + (i % 7),
    ),
  );
  await new Promise((r) => setTimeout(r, SECONDS * 1000));
  timers.forEach(clearInterval);
  const expected = markers.length * (CLIENTS - 1);
  const deadline = Date.now() + 30_000;
  while (latencies.length < expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));

  const texts = clients.map((c) => c.text.toString());
  const same = texts.every((t) => t === texts[0]);
  const complete = markers.every((m) => texts[0]!.includes(m));
  results.push(result("keystrokes typed", markers.length, "keystrokes"));
  const ratio = latencies.length / expected;
  results.push({ metric: "echoes received / expected", value: ratio, unit: "ratio", target: 1, exact: true, pass: ratio === 1 });
  results.push(result("remote-echo latency p50", quantile(latencies, 0.5), "ms"));
  results.push(result("remote-echo latency p95", quantile(latencies, 0.95), "ms", 100));
  results.push(result("  remote-echo latency max", Math.max(...latencies), "ms"));
  results.push({ metric: "all clients converged with every keystroke (1 = yes)", value: same && complete ? 1 : 0, unit: "", target: 1, exact: true, pass: same && complete });
  results.push(result("server RSS before clients", baselineKb / 1024, "MiB"));
  results.push(result("server peak RSS (VmHWM)", rssKb("VmHWM") / 1024, "MiB"));
  results.push(result("server RSS at the end", rssKb("VmRSS") / 1024, "MiB"));
} catch (e) {
  results.push(failure("collab benchmark", 0, null, e));
} finally {
  for (const c of clients) {
    c.provider.destroy();
    c.socket.destroy();
  }
  server.kill("SIGKILL");
  fs.rmSync(tmp, { recursive: true, force: true });
}

log("");
log(resultsTable(results));
log(`\nwrote ${writeResults("collab", results)}`);
process.exit(0);
