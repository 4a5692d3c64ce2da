#!/usr/bin/env node
// Builds the bundled "Acme Orders" sample project: copies examples/sample-project/ to a
// target directory and gives it a deterministic git history (fixed author and committer
// dates, fixed identity, global/system git config ignored), so commit hashes are the same
// on every run and on every machine.
//
//   node scripts/sample-project.mjs <targetDir> [--force]
//
// Without --force an existing repository at <targetDir> is left alone. With --force it is
// deleted and rebuilt. The repository is built in a sibling temp directory and renamed
// into place, so an interrupted run never leaves a half-built repository behind.
//
// Agent session state (.claude/work/) is local working state in the nexus skills and is
// not committed: it is listed in .git/info/exclude. That also lets
// .claude/work/JIRA-123/state.json record the real hashes of the feature/JIRA-123 commits,
// which the script checks and rewrites after building the history.

import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { simpleGit } from "simple-git";

export const SAMPLE_SOURCE_DIR = fileURLToPath(new URL("../examples/sample-project/", import.meta.url));

const IDENTITY = { name: "Acme Dev", email: "dev@acme.test" };
const LOCAL_EXCLUDE = ["# Agent session state is local working state (see SAMPLE.md).", "/.claude/work/", ""].join("\n");

// Earlier versions of files whose final form lives in examples/sample-project/. The
// history replays them so later commits are real modifications, not just additions.
const SESSION_COOKIE_BEFORE_FIX = `import { parse, serialize } from 'cookie';

export const SESSION_COOKIE = 'acme_sid';

export function sessionCookieHeader(sessionId: string, expiresAt: Date): string {
  return serialize(SESSION_COOKIE, sessionId, {
    httpOnly: true,
    secure: process.env.NODE_ENV === 'production',
    path: '/',
    expires: expiresAt,
  });
}

export function readSessionCookie(header: string | undefined): string | null {
  if (!header) return null;
  return parse(header)[SESSION_COOKIE] ?? null;
}
`;

const USER_EXPORTER_FIRST_VERSION = `import type { Pool } from 'pg';

export interface ExportedUser {
  id: string;
  email: string;
  displayName: string;
  role: string;
  createdAt: Date;
  lastLoginAt: Date | null;
}

const COLUMNS: Array<[header: string, pick: (u: ExportedUser) => unknown]> = [
  ['id', (u) => u.id],
  ['email', (u) => u.email],
  ['display_name', (u) => u.displayName],
  ['role', (u) => u.role],
  ['created_at', (u) => u.createdAt.toISOString()],
  ['last_login_at', (u) => u.lastLoginAt?.toISOString() ?? ''],
];

const BATCH_SIZE = 500;

/**
 * Streams a tenant's users as CSV (RFC 4180), in batches of 500 rows so a 200k-user
 * tenant never sits in memory.
 */
export class UserExporter {
  constructor(private readonly pool: Pool) {}

  async *csv(tenantId: string): AsyncGenerator<string> {
    yield COLUMNS.map(([header]) => header).join(',') + '\\r\\n';
    let after = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      const { rows } = await this.pool.query(
        \`select id, email, display_name as "displayName", role, created_at as "createdAt",
                last_login_at as "lastLoginAt"
           from users where tenant_id = $1 and id > $2 order by id limit $3\`,
        [tenantId, after, BATCH_SIZE],
      );
      if (rows.length === 0) return;
      for (const user of rows as ExportedUser[]) {
        yield COLUMNS.map(([, pick]) => csvCell(pick(user))).join(',') + '\\r\\n';
      }
      after = (rows[rows.length - 1] as ExportedUser).id;
    }
  }
}

function csvCell(value: unknown): string {
  const text = value == null ? '' : String(value);
  return /[",\\r\\n]/.test(text) ? \`"\${text.replace(/"/g, '""')}"\` : text;
}
`;

/**
 * The history, in commit order. `files` are copied from examples/sample-project/ unless
 * `write` supplies an earlier version. The first step commits everything that no later
 * step adds (and nothing under src/export/).
 */
export const SAMPLE_HISTORY = [
  {
    id: "init",
    branch: "main",
    date: "2026-01-05T09:00:00Z",
    message: "chore: initial import of Acme Orders service",
    write: { "src/auth/sessionCookie.ts": SESSION_COOKIE_BEFORE_FIX },
  },
  {
    id: "user-auth-1",
    branch: "feature/user-auth",
    from: "main",
    date: "2026-01-14T10:20:00Z",
    message: "feat(auth): add password policy for local accounts",
    files: ["src/auth/PasswordPolicy.ts"],
  },
  {
    id: "user-auth-2",
    branch: "feature/user-auth",
    date: "2026-01-19T15:45:00Z",
    message: "feat(auth): lock accounts after repeated failed logins",
    files: ["src/auth/LoginThrottle.ts"],
  },
  {
    id: "main-1",
    branch: "main",
    date: "2026-01-21T11:05:00Z",
    message: "fix(auth): set Secure and SameSite=Lax on the authentication cookie outside development",
    files: ["src/auth/sessionCookie.ts"],
  },
  {
    id: "api-refactor-1",
    branch: "refactor/api-refactor",
    from: "main",
    date: "2026-01-27T16:30:00Z",
    message: "refactor(api): extract problem+json helper from controller error paths",
    files: ["src/api/http/problem.ts"],
  },
  {
    id: "JIRA-123-1",
    branch: "feature/JIRA-123",
    from: "main",
    date: "2026-02-03T10:12:00Z",
    message: "[JIRA-123] feat(export): create UserExporter service",
    files: ["src/export/UserExporter.ts"],
    write: { "src/export/UserExporter.ts": USER_EXPORTER_FIRST_VERSION },
  },
  {
    id: "JIRA-123-2",
    branch: "feature/JIRA-123",
    date: "2026-02-05T14:48:00Z",
    message: "[JIRA-123] feat(export): add export endpoint",
    files: ["src/export/ExportJob.ts", "src/export/exportRoutes.ts"],
  },
  {
    id: "main-2",
    branch: "main",
    date: "2026-02-06T09:30:00Z",
    message: "docs(runbooks): add payment webhook replay runbook",
    files: ["docs/runbooks/payment-webhook-replay.md"],
  },
  {
    id: "JIRA-123-3",
    branch: "feature/JIRA-123",
    date: "2026-02-09T14:10:00Z",
    message: "[JIRA-123] fix(export): neutralise spreadsheet formulas in CSV cells",
    files: ["src/export/UserExporter.ts", "src/export/UserExporter.test.ts"],
  },
];

// Which commits .claude/work/JIRA-123/state.json points at.
const JIRA_123_STATE = ".claude/work/JIRA-123/state.json";
const JIRA_123_CHUNK_COMMITS = { 1: "JIRA-123-1", 2: "JIRA-123-2" };
const JIRA_123_COMMITS = ["JIRA-123-1", "JIRA-123-2", "JIRA-123-3"];

// Environment for every git call: no global or system config (so a developer's
// commit.gpgsign, hooks, templates or autocrlf cannot change the result), fixed dates.
const GIT_ENV_KEYS = ["GIT_CONFIG_NOSYSTEM", "GIT_CONFIG_GLOBAL", "GIT_TERMINAL_PROMPT", "GIT_AUTHOR_DATE", "GIT_COMMITTER_DATE"];
const UNSAFE_AMBIENT = new Set(["editor", "visual", "pager", "prefix", "ssh_askpass"]);

function gitEnv(date) {
  const env = {};
  for (const [key, value] of Object.entries(process.env)) {
    const k = key.toLowerCase();
    if (value === undefined || k.startsWith("git_") || UNSAFE_AMBIENT.has(k)) continue;
    env[key] = value;
  }
  env.GIT_CONFIG_NOSYSTEM = "1";
  env.GIT_CONFIG_GLOBAL = os.devNull;
  env.GIT_TERMINAL_PROMPT = "0";
  if (date) {
    env.GIT_AUTHOR_DATE = date;
    env.GIT_COMMITTER_DATE = date;
  }
  return env;
}

function git(baseDir, date) {
  return simpleGit({
    baseDir,
    allowEnvironment: GIT_ENV_KEYS,
    unsafe: { allowUnsafeConfigPaths: true },
  }).env(gitEnv(date));
}

const toPosix = (p) => p.split(path.sep).join("/");

async function exists(p) {
  try {
    await fs.lstat(p);
    return true;
  } catch {
    return false;
  }
}

function isInside(child, parent) {
  const rel = path.relative(parent, child);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

async function copyFromSource(dir, rel) {
  const from = path.join(SAMPLE_SOURCE_DIR, rel);
  if (!(await exists(from))) throw new Error(`history file missing from the sample: ${rel}`);
  const to = path.join(dir, rel);
  await fs.mkdir(path.dirname(to), { recursive: true });
  await fs.cp(from, to, { recursive: true, force: true });
}

async function buildHistory(dir) {
  const later = new Set(SAMPLE_HISTORY.slice(1).flatMap((s) => s.files ?? []));
  const [init, ...rest] = SAMPLE_HISTORY;

  await git(dir).raw(["init", "-q", "-b", "main"]);
  const repo = git(dir);
  await repo.addConfig("user.name", IDENTITY.name, false, "local");
  await repo.addConfig("user.email", IDENTITY.email, false, "local");
  await repo.addConfig("commit.gpgsign", "false", false, "local");
  await repo.addConfig("core.autocrlf", "false", false, "local");
  await fs.mkdir(path.join(dir, ".git", "info"), { recursive: true });
  await fs.writeFile(path.join(dir, ".git", "info", "exclude"), LOCAL_EXCLUDE);

  await fs.cp(SAMPLE_SOURCE_DIR, dir, {
    recursive: true,
    filter: (src) => {
      const rel = toPosix(path.relative(SAMPLE_SOURCE_DIR, src));
      if (rel === "") return true;
      if (rel === ".git" || rel.startsWith(".git/")) return false;
      if (rel === "src/export" || rel.startsWith("src/export/")) return false;
      return !later.has(rel);
    },
  });
  for (const [rel, content] of Object.entries(init.write ?? {})) {
    await fs.mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await fs.writeFile(path.join(dir, rel), content);
  }
  await git(dir).raw(["add", "-A"]);
  await commit(dir, init);

  const hashes = { [init.id]: await shortHead(dir) };
  let current = "main";
  for (const step of rest) {
    if (step.from) {
      await git(dir).raw(["checkout", "-q", "-b", step.branch, step.from]);
    } else if (step.branch !== current) {
      await git(dir).raw(["checkout", "-q", step.branch]);
    }
    current = step.branch;
    for (const rel of step.files) {
      const inline = step.write?.[rel];
      if (inline !== undefined) {
        await fs.mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
        await fs.writeFile(path.join(dir, rel), inline);
      } else {
        await copyFromSource(dir, rel);
      }
    }
    await git(dir).raw(["add", "--", ...step.files]);
    await commit(dir, step);
    hashes[step.id] = await shortHead(dir);
  }
  if (current !== "main") await git(dir).raw(["checkout", "-q", "main"]);
  return hashes;
}

async function commit(dir, step) {
  await git(dir, step.date).raw(["commit", "-q", "--no-verify", "--no-gpg-sign", "-m", step.message]);
}

async function shortHead(dir) {
  return (await git(dir).raw(["rev-parse", "--short=7", "HEAD"])).trim();
}

/** Points JIRA-123's plan chunks and commit list at the commits just built. */
async function syncJira123State(dir, hashes) {
  const file = path.join(dir, JIRA_123_STATE);
  const before = await fs.readFile(file, "utf8");
  const state = JSON.parse(before);
  for (const chunk of state.plan?.chunks ?? []) {
    const stepId = JIRA_123_CHUNK_COMMITS[chunk.id];
    if (stepId) chunk.commit = hashes[stepId];
  }
  state.commits = JIRA_123_COMMITS.map((id) => hashes[id]);
  const after = JSON.stringify(state, null, 2) + "\n";
  if (after !== before) await fs.writeFile(file, after);
  return after !== before;
}

/**
 * Copies examples/sample-project/ to `targetDir` and builds its git history.
 * Returns `{ targetDir, created, head?, branches?, commits? }`; `created` is false when a
 * repository already existed and `force` was not set.
 */
export async function createSampleProject(targetDir, { force = false } = {}) {
  if (!targetDir || typeof targetDir !== "string") throw new Error("createSampleProject: targetDir is required");
  const target = path.resolve(targetDir);
  const source = path.resolve(SAMPLE_SOURCE_DIR);
  if (path.parse(target).root === target) throw new Error(`refusing to use the filesystem root as target: ${target}`);
  if (isInside(target, source) || isInside(source, target)) {
    throw new Error(`target ${target} overlaps the sample source ${source}; choose a directory outside it`);
  }

  const replacing = await exists(path.join(target, ".git"));
  if (replacing) {
    if (!force) {
      process.stderr.write(`sample-project: ${target} already has a git repository, left unchanged (use --force to rebuild)\n`);
      return { targetDir: target, created: false };
    }
  } else if ((await exists(target)) && !force) {
    const entries = await fs.readdir(target);
    if (entries.length > 0) throw new Error(`${target} exists and is not empty; pass --force to replace it`);
  }

  const building = `${target}.building-${process.pid}`;
  await fs.rm(building, { recursive: true, force: true });
  await fs.mkdir(building, { recursive: true });
  let hashes;
  try {
    hashes = await buildHistory(building);
    await syncJira123State(building, hashes);
    await fs.rm(target, { recursive: true, force: true });
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.rename(building, target);
  } catch (err) {
    await fs.rm(building, { recursive: true, force: true });
    throw err;
  }

  const branches = [...new Set(SAMPLE_HISTORY.map((s) => s.branch))];
  const head = hashes[SAMPLE_HISTORY.filter((s) => s.branch === "main").at(-1).id];
  process.stderr.write(`sample-project: ${replacing ? "rebuilt" : "created"} ${target} (${SAMPLE_HISTORY.length} commits on ${branches.length} branches, main at ${head})\n`);
  return { targetDir: target, created: true, head, branches, commits: hashes };
}

async function main(argv) {
  const args = argv.slice(2);
  if (args.includes("--help") || args.includes("-h")) {
    process.stdout.write("usage: node scripts/sample-project.mjs <targetDir> [--force]\n");
    return 0;
  }
  const force = args.includes("--force") || args.includes("-f");
  const positional = args.filter((a) => !a.startsWith("-"));
  const unknown = args.filter((a) => a.startsWith("-") && !["--force", "-f"].includes(a));
  if (positional.length !== 1 || unknown.length > 0) {
    process.stderr.write("usage: node scripts/sample-project.mjs <targetDir> [--force]\n");
    return 1;
  }
  await createSampleProject(positional[0], { force });
  return 0;
}

const invokedDirectly = (() => {
  if (!process.argv[1]) return false;
  try {
    return import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;
  } catch {
    return false;
  }
})();

if (invokedDirectly) {
  main(process.argv).then(
    (code) => process.exit(code),
    (err) => {
      process.stderr.write(`sample-project: error: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
}
