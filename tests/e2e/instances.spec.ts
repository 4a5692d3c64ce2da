/**
 * Two full app processes (`workbench serve`: dashboard and co-editing server) in team mode on one
 * PostgreSQL and one Redis, which this file starts itself: the same person is signed in on both,
 * an edit typed on one shows live on the other, and a re-index asked of both runs once.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { setupCode } from "../../lib/auth/setup-code";
import { sampleDir } from "./helpers";

test.describe.configure({ mode: "serial" });

const root = process.cwd();
const base = Number(process.env.E2E_PORT ?? 3210) + 4;
const INSTANCES = [`http://127.0.0.1:${base}`, `http://127.0.0.1:${base + 2}`];
const SECRET = "e2e-instances-secret-e2e-instances-secret";
const children: ChildProcess[] = [];
const dirs: string[] = [];
let pgDir = "";
let redisDir = "";

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

const tempDir = (prefix: string) => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  dirs.push(d);
  return d;
};

async function ready(url: string): Promise<void> {
  await expect.poll(async () => (await fetch(`${url}/api/ready`).catch(() => null))?.status ?? 0, { timeout: 120_000, message: `${url} becomes ready` }).toBe(200);
}

test.beforeAll(async () => {
  test.setTimeout(300_000);
  pgDir = tempDir("wb-e2e-pg-");
  redisDir = tempDir("wb-e2e-redis-");
  const [pgPort, redisPort] = [await freePort(), await freePort()];
  execFileSync("bash", [path.join(root, "scripts/pg-test-server.sh"), "start", pgDir, String(pgPort)], { stdio: "inherit", timeout: 240_000 });
  execFileSync("psql", ["-h", "127.0.0.1", "-p", String(pgPort), "-U", "postgres", "-qc", "CREATE DATABASE workbench_instances"]);
  execFileSync("bash", [path.join(root, "scripts/redis-test-server.sh"), "start", redisDir, String(redisPort)], { stdio: "inherit", timeout: 240_000 });
  // One after the other: the first applies the migrations, so the second finds them done.
  for (const url of INSTANCES) {
    const child = spawn(process.execPath, ["bin/workbench.cjs", "serve", "--port", new URL(url).port], {
      cwd: root,
      detached: true,
      stdio: ["ignore", "ignore", "inherit"],
      env: {
        ...process.env,
        DATABASE_URL: `postgresql://postgres@127.0.0.1:${pgPort}/workbench_instances`,
        REDIS_URL: `redis://127.0.0.1:${redisPort}`,
        WORKBENCH_MODE: "team",
        WORKBENCH_AUTH_SECRET: SECRET,
        WORKBENCH_DATA_DIR: tempDir("wb-e2e-instance-"),
        WORKBENCH_FETCH_INTERVAL: "0",
      },
    });
    children.push(child);
    await ready(url);
  }
});

test.afterAll(async () => {
  for (const child of children) {
    if (child.exitCode !== null || child.pid === undefined) continue;
    const exited = new Promise((r) => child.once("exit", r));
    process.kill(-child.pid, "SIGTERM"); // serve and its Next child
    await exited;
  }
  if (pgDir) execFileSync("bash", [path.join(root, "scripts/pg-test-server.sh"), "stop", pgDir]);
  if (redisDir) execFileSync("bash", [path.join(root, "scripts/redis-test-server.sh"), "stop", redisDir]);
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

async function openPacket(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await expect(page.getByTestId("packet-editor")).toHaveAttribute("data-ready", "true", { timeout: 30_000 });
  await page.getByRole("tab", { name: "Markdown" }).click();
}

test("two instances serve the same people: one sign-in, live edits across them, one index job", async ({ browser }) => {
  test.setTimeout(180_000);
  const [A, B] = INSTANCES as [string, string];
  const context = await browser.newContext();
  const onA = await context.newPage();
  await onA.goto(`${A}/sign-in?setup=${setupCode(SECRET)}`);
  await onA.getByLabel("Name").fill("Ada Admin");
  await onA.getByLabel("Email").fill("ada@example.com");
  await onA.getByLabel("Password").fill("correct horse battery staple");
  await onA.getByRole("button", { name: "Create account" }).click();
  await expect(onA.getByRole("heading", { name: "Projects", level: 1 })).toBeVisible();

  // The session lives in the shared database (and the cookie belongs to the host, whatever the port).
  const onB = await context.newPage();
  await onB.goto(`${B}/account`);
  await expect(onB.getByRole("heading", { name: "Account", level: 1 })).toBeVisible();
  await expect(onB.getByText("ada@example.com").first()).toBeVisible();

  // A project added on one instance is indexed once and known to both.
  const added = await onA.request.post(`${A}/api/v1/projects`, { data: { path: sampleDir() } });
  expect(added.status()).toBe(201);
  const { project, job } = (await added.json()) as { project: { id: string }; job: { id: string } };
  await expect.poll(async () => ((await (await onB.request.get(`${B}/api/v1/jobs/${job.id}`)).json()) as { job: { status: string } }).job.status, { timeout: 60_000 }).toBe("succeeded");

  // A full re-index asked of both instances at once is one job, run once.
  const asked = await Promise.all([onA.request.post(`${A}/api/v1/projects/${project.id}/index?full=1`), onB.request.post(`${B}/api/v1/projects/${project.id}/index?full=1`)]);
  const jobIds = await Promise.all(asked.map(async (r) => ((await r.json()) as { job: { id: string } }).job.id));
  expect(jobIds[0]).toBe(jobIds[1]);

  // Typed on one instance, seen live on the other (Hocuspocus's Redis extension).
  const created = await onA.request.post(`${A}/api/v1/projects/${project.id}/packets`, { data: { markdown: "## Context Packet\n\n**Task**: Persist export jobs\n" } });
  const { packet } = (await created.json()) as { packet: { id: string } };
  await openPacket(onA, `${A}/projects/${project.id}/packets/${packet.id}`);
  await openPacket(onB, `${B}/projects/${project.id}/packets/${packet.id}`);
  const editor = onA.getByLabel("Packet markdown");
  await editor.click();
  await onA.keyboard.press("Control+End");
  await onA.keyboard.type("\nTyped on instance one.");
  await expect(onB.getByLabel("Packet markdown")).toContainText("Typed on instance one.");
  await context.close();
});
