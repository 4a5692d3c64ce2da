/**
 * Repository files are read and written only through the file layer (lib/core/project-fs.ts
 * and lib/core/fs/), so no capability can forget a rule (realpath inside the root, regular
 * files only, caps, timeouts). Code that touches the Workbench's own files (its database, its
 * data folder, its package.json) or a file a user names on the command line is listed here
 * with the reason; anything else importing node:fs fails this test.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../helpers/project-builder";

const ALLOWED: Record<string, string> = {
  "lib/core/project-fs.ts": "the file layer itself",
  "lib/db/app-root.ts": "finds the Workbench's own install folder",
  "lib/db/migrate.ts": "the Workbench's own migrations and database file",
  "lib/ops/backup.ts": "backups of the Workbench's data folder",
  "lib/ops/readiness.ts": "the Workbench's own package.json and data folder",
  "lib/mcp/server.ts": "the Workbench's own package.json (its version)",
  "lib/core/git-runner.ts":
    "builds the shadow git folder git runs against (so a repository's own config is never read), from the repository's .git layout: HEAD and packed-refs read as regular files only, refs and objects linked",
  "lib/projects/remote.ts": "clones of git remotes in the Workbench's data folder",
  "lib/projects/remote-projects.ts": "clones of git remotes in the Workbench's data folder",
  "cli/commands/serve-command.ts": "checks the Workbench's own build output",
  "cli/commands/policy-command.ts": "existence checks of files the user names; reads go through lib/core/fs/named-file.ts",
};

const FS_IMPORT = /(?:from\s+["'](?:node:)?fs(?:\/promises)?["']|require\(\s*["'](?:node:)?fs(?:\/promises)?["']\s*\))/;

function sources(dir: string): string[] {
  const out: string[] = [];
  const visit = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const abs = path.join(d, e.name);
      if (e.isDirectory()) {
        if (e.name !== "generated" && e.name !== "node_modules") visit(abs);
      } else if (/\.(ts|tsx|mjs|js)$/.test(e.name)) out.push(path.relative(REPO_ROOT, abs).split(path.sep).join("/"));
    }
  };
  visit(path.join(REPO_ROOT, dir));
  return out;
}

describe("the file-layer boundary", () => {
  it("only the file layer and the listed Workbench-internal modules import node:fs", () => {
    const offenders = ["lib", "app", "components", "cli"]
      .flatMap(sources)
      .filter((f) => !f.startsWith("lib/core/fs/") && !(f in ALLOWED))
      .filter((f) => FS_IMPORT.test(fs.readFileSync(path.join(REPO_ROOT, f), "utf8")));
    expect(offenders).toEqual([]);
  });

  it("every allowlisted module still exists and still needs the exception", () => {
    for (const f of Object.keys(ALLOWED)) {
      expect(FS_IMPORT.test(fs.readFileSync(path.join(REPO_ROOT, f), "utf8")), f).toBe(true);
    }
  });
});
