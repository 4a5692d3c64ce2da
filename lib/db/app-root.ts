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
