#!/usr/bin/env node
// Makes a fresh clone runnable: generated Prisma clients. Idempotent and quick when done.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const prisma = path.join(root, "node_modules", ".bin", "prisma");

function generated(kind) {
  const schema = fs.statSync(path.join(root, "prisma", kind, "schema.prisma")).mtimeMs;
  const client = path.join(root, "lib", "db", "generated", kind, "client.ts");
  return fs.existsSync(client) && fs.statSync(client).mtimeMs >= schema;
}

for (const kind of ["sqlite", "postgres"]) {
  if (generated(kind)) continue;
  process.stderr.write(`setup: generating the ${kind} Prisma client\n`);
  execFileSync(prisma, ["generate", "--config", `prisma/${kind}.config.ts`], {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, DATABASE_URL: kind === "postgres" ? "postgresql://localhost/unused" : "", PRISMA_HIDE_UPDATE_MESSAGE: "1" },
  });
}

const { cliBuildIsCurrent, buildCli } = await import("./build-cli.mjs");
if (!cliBuildIsCurrent()) {
  process.stderr.write("setup: compiling the CLI\n");
  await buildCli();
}
