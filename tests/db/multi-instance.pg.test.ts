import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db/client";
import { addProject } from "../../lib/projects/add-project";
import { loadDocState } from "../../lib/db/repositories/collab";
import { collabClient, freePort, newPacket, stop, textOf, until } from "../helpers/collab-client";
import { copySampleProject, removeTempDirs } from "../helpers/project-builder";
import { accountWithToken, enterTeamMode, leaveTeamMode, TEST_AUTH_SECRET } from "../helpers/team-mode";
import { issueCollabToken } from "../../lib/auth/collab-token";
import { setMember } from "../../lib/db/repositories/accounts";
import { packetProject } from "../../lib/db/repositories/packets";

afterAll(removeTempDirs);

const root = path.resolve(import.meta.dirname, "../..");

/** A child process that prints `line` once it is ready. */
async function spawnUntil(args: string[], env: NodeJS.ProcessEnv, line: string, stdin: "pipe" | "ignore" = "ignore"): Promise<{ child: ChildProcess; out: () => string }> {
  const child = spawn(process.execPath, ["--import", "tsx", ...args], { cwd: root, env, stdio: [stdin, "pipe", "inherit"] });
  let out = "";
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes(line)) resolve();
    });
    child.once("exit", (code) => reject(new Error(`${args.join(" ")} exited with ${code}: ${out}`)));
  });
  return { child, out: () => out };
}

// SQLite is one file for one instance: this file runs only in the PostgreSQL run (vitest.config.ts).
describe("several instances on one PostgreSQL and one Redis", () => {
  let redisUrl = process.env.REDIS_TEST_URL ?? "";
  let redisDir = "";
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    if (redisUrl) return;
    // Run alone (not from scripts/test.sh): start a Redis of our own, installing it if needed.
    redisDir = fs.mkdtempSync(path.join(os.tmpdir(), "wb-redis-"));
    const port = await freePort();
    execFileSync("bash", [path.join(root, "scripts/redis-test-server.sh"), "start", redisDir, String(port)], { stdio: "inherit", timeout: 300_000 });
    redisUrl = `redis://127.0.0.1:${port}`;
  }, 300_000);

  afterAll(async () => {
    await Promise.all(children.map(stop));
    if (!redisDir) return;
    execFileSync("bash", [path.join(root, "scripts/redis-test-server.sh"), "stop", redisDir], { stdio: "inherit" });
    fs.rmSync(redisDir, { recursive: true, force: true });
  });

  it("shows an edit and a cursor made on one instance live on the other, and stores both instances' edits", async () => {
    const packetId = await newPacket();
    const servers = [];
    for (let i = 0; i < 2; i++) {
      const port = await freePort();
      const { child } = await spawnUntil([path.join(root, "scripts/collab-server.ts"), String(port)], { ...process.env, REDIS_URL: redisUrl }, "listening");
      children.push(child);
      servers.push({ child, port });
    }
    const a = collabClient(servers[0]!.port, packetId);
    const b = collabClient(servers[1]!.port, packetId);
    try {
      await Promise.all([a.synced, b.synced]);
      a.text.insert(a.text.length, "**Parent**: typed on instance one\n");
      await until("instance two's client sees the edit made on instance one", () => b.text.toString().includes("typed on instance one"));
      b.text.insert(0, "<!-- typed on instance two -->\n");
      await until("instance one's client sees the edit made on instance two", () => a.text.toString().includes("typed on instance two"));

      a.provider.setAwarenessField("user", { name: "Ada on one" });
      const names = () => [...b.provider.awareness!.getStates().values()].map((s) => (s.user as { name?: string } | undefined)?.name);
      await until("instance two's client sees who is on instance one", () => names().includes("Ada on one"));

      await until("both sides hear the document was stored", () => a.stored.length > 0 && b.stored.length > 0);
      await until("both edits are in the database", () => a.text.toString() === b.text.toString());
      const expected = a.text.toString();
      await expect.poll(async () => textOf((await loadDocState(packetId))!), { timeout: 15_000 }).toBe(expected);
    } finally {
      a.close();
      b.close();
      await Promise.all(servers.map((s) => stop(s.child)));
    }
  });

  it("serves the same signed-in people in team mode: one token opens the document on either instance", async () => {
    enterTeamMode();
    try {
      const owner = await accountWithToken(`owner-${Date.now()}@example.com`);
      const packetId = await newPacket();
      await setMember(await packetProject(packetId), owner.id, "editor");
      const { token } = await issueCollabToken(TEST_AUTH_SECRET, owner.id);
      const ports = [await freePort(), await freePort()];
      for (const port of ports) {
        const { child } = await spawnUntil([path.join(root, "scripts/collab-server.ts"), String(port)], { ...process.env, REDIS_URL: redisUrl }, "listening");
        children.push(child);
      }
      const a = collabClient(ports[0]!, packetId, { token });
      const b = collabClient(ports[1]!, packetId, { token });
      const stranger = collabClient(ports[1]!, packetId);
      try {
        await Promise.all([a.synced, b.synced]);
        a.text.insert(0, "typed by the owner on instance one\n");
        await until("instance two shows it", () => b.text.toString().includes("typed by the owner on instance one"));
        await until("a client without a token is refused", () => stranger.auth.denied !== null);
      } finally {
        for (const c of [a, b, stranger]) c.close();
      }
    } finally {
      leaveTeamMode();
    }
  });

  it("runs an indexing job asked of both instances at once only once", async () => {
    const project = await addProject({ path: copySampleProject() });
    const instances = await Promise.all([0, 1].map(() => spawnUntil([path.join(root, "tests/helpers/index-job-child.ts"), project.id], { ...process.env }, "ready", "pipe")));
    children.push(...instances.map((i) => i.child));
    for (const i of instances) i.child.stdin!.write("go\n");
    await Promise.all(instances.map((i) => expect.poll(() => i.out().includes("done "), { timeout: 60_000, message: "the instance reports the job finished" }).toBe(true)));

    const jobIds = instances.map((i) => /job (\S+)/.exec(i.out())![1]);
    expect(jobIds[0]).toBe(jobIds[1]);
    for (const i of instances) expect(i.out()).toContain("done succeeded");
    const db = await getDb();
    const rows = await db.indexJob.findMany({ where: { projectId: project.id } });
    expect(rows.map((r) => [r.id, r.status])).toEqual([[jobIds[0], "succeeded"]]);
  });
});
