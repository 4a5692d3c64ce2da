import fs from "node:fs";
import path from "node:path";
import { readPlainEnv } from "../core/env-plain";

/** The Workbench's own folder (where prisma/ lives), wherever the process was started. */
export function appRoot(): string {
  const fromEnv = readPlainEnv("WORKBENCH_APP_ROOT");
  if (fromEnv) return fromEnv;
  let dir = process.cwd();
  for (let i = 0; i < 8; i++) {
    if (fs.existsSync(path.join(dir, "prisma", "sqlite", "schema.prisma"))) return dir;
    const up = path.dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return process.cwd();
}

/** The Workbench's version, from its own package.json; "unknown" when that cannot be read. */
export function workbenchVersion(): string {
  try {
    const pkg = JSON.parse(fs.readFileSync(path.join(appRoot(), "package.json"), "utf8")) as { version?: unknown };
    return typeof pkg.version === "string" ? pkg.version : "unknown";
  } catch {
    return "unknown";
  }
}
