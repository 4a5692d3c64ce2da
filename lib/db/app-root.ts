import fs from "node:fs";
import path from "node:path";

/** The Workbench's own folder (where prisma/ lives), wherever the process was started. */
export function appRoot(): string {
  if (process.env.WORKBENCH_APP_ROOT) return process.env.WORKBENCH_APP_ROOT;
  let dir = process.cwd();
  for (let i = 0; i < 8; i++) {
    if (fs.existsSync(path.join(dir, "prisma", "sqlite", "schema.prisma"))) return dir;
    const up = path.dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return process.cwd();
}
