#!/usr/bin/env node
/**
 * `npm run dev`: the Next.js dev server and the co-editing server beside it, like `workbench
 * serve` runs them in production, so the packet editor co-edits in development too. Ports:
 * PORT (3000) for the app and PORT+1 for co-editing (WORKBENCH_COLLAB_PORT overrides).
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const port = Number(process.env.PORT ?? 3000);
const collabPort = Number(process.env.WORKBENCH_COLLAB_PORT ?? port + 1);
const env = { ...process.env, WORKBENCH_APP_ROOT: root, WORKBENCH_COLLAB_PORT: String(collabPort), WORKBENCH_COLLAB_HOST: "127.0.0.1" };

const children = [
  spawn(process.execPath, ["--import", "tsx", path.join(root, "scripts/collab-server.ts"), String(collabPort)], { cwd: root, env: { ...env, COLLAB_DEBOUNCE: "1000" }, stdio: "inherit" }),
  spawn(process.execPath, [path.join(root, "node_modules/next/dist/bin/next"), "dev", "-H", "127.0.0.1", "-p", String(port)], { cwd: root, env, stdio: "inherit" }),
];
const stopAll = (code) => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGTERM");
  process.exitCode = code;
};
for (const c of children) c.once("exit", (code) => stopAll(code ?? 1));
process.once("SIGINT", () => stopAll(130));
process.once("SIGTERM", () => stopAll(143));
