import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import Database from "better-sqlite3";
import { getDb } from "../../lib/db/client";
import { ProjectBuilder, REPO_ROOT, makeTempDir, removeTempDirs } from "../helpers/project-builder";
import { buildSampleRepo } from "../helpers/sample-project";
import { runWorkbench, type CliRun } from "../helpers/run-cli";

afterAll(removeTempDirs);

const onPostgres = /^postgres/.test(process.env.DATABASE_URL ?? "");

/** `node bin/workbench.cjs ...` with its own data folder; arguments are passed without a shell. */
function workbench(args: string[], dataDir: string, cwd = REPO_ROOT): Promise<CliRun> {
  const env: NodeJS.ProcessEnv = { ...process.env, WORKBENCH_DATA_DIR: dataDir };
  // The test process points DATABASE_URL at its own SQLite file; the CLI gets its own.
  if (!/^postgres/.test(env.DATABASE_URL ?? "")) delete env.DATABASE_URL;
  delete env.WORKBENCH_DEBUG;
  return runWorkbench(args, { env, cwd });
}

/** The folders registered in the CLI's database: its own SQLite file in `dataDir`, or the shared PostgreSQL database. */
async function registeredRoots(dataDir: string): Promise<string[]> {
  if (onPostgres) return (await (await getDb()).project.findMany({ select: { rootPath: true }, orderBy: { rootPath: "asc" } })).map((p) => p.rootPath);
  const file = path.join(dataDir, "workbench.db");
  if (!fs.existsSync(file)) return [];
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare('SELECT "rootPath" FROM "Project" ORDER BY "rootPath"').all() as { rootPath: string }[]).map((r) => r.rootPath);
  } finally {
    db.close();
  }
}

describe("workbench CLI", () => {
  let project: string;
  let data: string;
  let hashes: Record<string, string>;

  beforeAll(async () => {
    const sample = await buildSampleRepo();
    project = sample.targetDir;
    hashes = sample.commits;
    data = makeTempDir("wb-cli-data-");
  });

  it("load-context JIRA-123 prints the summary on stdout and exits 0; two runs are identical", async () => {
    const first = await workbench(["load-context", "JIRA-123", "--project", project], data);
    expect(first.stderr).not.toMatch(/ERROR/);
    expect(first.code).toBe(0);
    const second = await workbench(["load-context", "JIRA-123", "--project", project], data);
    expect(second.code).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    const lines = first.stdout.split("\n");
    expect(lines[0]).toBe("Context: JIRA-123");
    expect(lines[2]).toBe("> HISTORICAL REFERENCE — This state was recorded in a prior session. Verify all");
    for (const l of [
      "## Work State",
      "Status: implement (in_progress)",
      "Last updated: 2026-02-09T14:30:00Z",
      "Branch: feature/JIRA-123 → origin/main",
      "Chunks: 2/3 completed",
      "- 2026-02-09T13:55:00Z — [auto] Edit: src/export/UserExporter.ts",
      "## Prior art: Brainstorm 'export-approaches'",
      "Selected approach: Queue-based async export",
      `- ${hashes["JIRA-123-1"]} [JIRA-123] feat(export): create UserExporter service (2026-02-03)`,
      "- Resume implementation → /resume-work JIRA-123",
    ]) {
      expect(lines).toContain(l);
    }
    // With the embedded database the CLI keeps it in WORKBENCH_DATA_DIR.
    if (!onPostgres) expect(fs.existsSync(path.join(data, "workbench.db"))).toBe(true);
  });

  it("with no query prints the inventory", async () => {
    const r = await workbench(["load-context", "--project", project], data);
    expect(r.code).toBe(0);
    expect(r.stdout.startsWith("Available Context\n")).toBe(true);
    expect(r.stdout).toContain("9 topics found across local sources.");
    expect(r.stdout).toMatch(/^JIRA-123\s+User Export Feature\s+✓\s+in_progress$/m);
  });

  it("a blank query exits non-zero with an ERROR line on stderr and nothing on stdout", async () => {
    const r = await workbench(["load-context", "  ", "--project", project], data);
    expect(r.code).not.toBe(0);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^ERROR: .*blank/m);
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });

  it("a query with $() is data: nothing is executed and it is echoed verbatim", async () => {
    const marker = path.join(makeTempDir("wb-cli-marker-"), "pwned");
    const q = `$(touch ${marker})`;
    const r = await workbench(["load-context", q, "--project", project], data);
    expect(r.code).toBe(0);
    expect(fs.existsSync(marker)).toBe(false);
    expect(r.stdout.split("\n")[0]).toMatch(/^(Context: |No context found for: ")\$\(touch /);
  });

  it("feature/JIRA-123 finds the branch", async () => {
    const r = await workbench(["load-context", "feature/JIRA-123", "--project", project], data);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("## Git History\nBranches:\n- feature/JIRA-123 (last commit: 2026-02-09)");
  });

  it("a missing project folder is an error, not a crash", async () => {
    const r = await workbench(["load-context", "JIRA-123", "--project", path.join(data, "no-such-project")], data);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^ERROR: No folder at /m);
  });

  it("index --json prints the statistics; a second run changes nothing", async () => {
    // A project of its own: the first run must be a full index whichever database is used.
    const own = (await buildSampleRepo()).targetDir;
    const fresh = makeTempDir("wb-cli-data2-");
    const first = await workbench(["index", own, "--json"], fresh);
    expect(first.code).toBe(0);
    const stats = JSON.parse(first.stdout) as Record<string, unknown>;
    expect(stats).toMatchObject({ topics: 9, commits: 9, branches: 4, gitSkipped: false, warnings: 1 });
    expect(first.stderr).toContain("warning: .claude/proposals/manifest.json: not valid JSON");
    const second = JSON.parse((await workbench(["index", own, "--json"], fresh)).stdout) as Record<string, unknown>;
    expect(second).toMatchObject({ filesChanged: 0, filesRemoved: 0, topics: 9, gitSkipped: true, warnings: 1 });
    // Two full CLI runs (each migrating, indexing, and reducing the sample's run for search).
  }, 90_000);

  it.each([
    ["index", /Usage: workbench index \[options\] \[project-path\]/],
    ["load-context", /Usage: workbench load-context \[options\] \[query\]/],
  ])("%s --help prints usage and exits 0", async (cmd, usage) => {
    const r = await workbench([cmd, "--help"], data);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(usage);
    expect(r.stderr).toBe("");
  });

  it("an unknown command exits 2 with usage on stderr", async () => {
    const r = await workbench(["frobnicate"], data);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown command/);
  });
});

/**
 * Issue 30: without --project the commands that read a project took whatever folder they were
 * started in, and load-context registered it (run in the Workbench's own folder, it added the
 * Workbench). Now the current folder is taken only when it holds agent artifacts.
 */
describe("workbench load-context and loader without --project", () => {
  // Each test gets its own data folder; on PostgreSQL the CLI shares the worker's database, so
  // it starts as empty as a new data folder would.
  beforeEach(async () => {
    if (onPostgres) await (await getDb()).$executeRawUnsafe('TRUNCATE "Project", "User" CASCADE');
  });
  const refusal = (cwd: string) => new RegExp(`^ERROR: no project named, and the current folder holds no agent artifacts: ${cwd.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`, "m");

  it("in the Workbench's own folder refuse with exit 2, name --project and the known projects, and register nothing", async () => {
    const data = makeTempDir("wb-cli-noproject-");
    const sample = fs.realpathSync((await buildSampleRepo()).targetDir);
    expect((await workbench(["load-context", "--project", sample], data)).code).toBe(0);
    const before = await registeredRoots(data);
    expect(before).toContain(sample);
    for (const args of [["load-context"], ["load-context", "JIRA-123"], ["load-context", "--verbose"]]) {
      const r = await workbench(args, data, REPO_ROOT);
      expect([r.code, r.stdout], r.stderr).toEqual([2, ""]);
      expect(r.stderr).toMatch(refusal(REPO_ROOT));
      expect(r.stderr).toContain("Name the project folder: workbench load-context [query] --project <path>");
      expect(r.stderr).toContain(`Projects the Workbench knows:\n  ${path.basename(sample)}: ${sample}\n`);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
    const loader = await workbench(["loader", "why server-side sessions?"], data, REPO_ROOT);
    expect([loader.code, loader.stdout]).toEqual([2, ""]);
    expect(loader.stderr).toMatch(refusal(REPO_ROOT));
    expect(loader.stderr).toContain('Name the project folder: workbench loader --project <path> "<prompt>"');
    expect(await registeredRoots(data)).toEqual(before);
    expect(before.filter((r) => r === fs.realpathSync(REPO_ROOT))).toEqual([]);
  }, 90_000);

  it("in a folder of code registers nothing, on a fresh database too", async () => {
    const data = makeTempDir("wb-cli-noproject-");
    const code = new ProjectBuilder().file("README.md", "# An app\n").file("src/index.ts", "export {};\n").file(".claude/settings.json", "{}\n");
    const cwd = fs.realpathSync(code.root);
    const r = await workbench(["load-context"], data, cwd);
    expect([r.code, r.stdout]).toEqual([2, ""]);
    expect(r.stderr).toMatch(refusal(cwd));
    expect(r.stderr).not.toContain("Projects the Workbench knows");
    expect(await registeredRoots(data)).toEqual([]);
  });

  it("does not take the current folder for having been registered by name: the fast start declines too", async () => {
    const data = makeTempDir("wb-cli-noproject-");
    const plain = fs.realpathSync(new ProjectBuilder().file("README.md", "# Not a project\n").root);
    // Named, a folder is taken as asked, and nothing found is said in both forms.
    const named = await workbench(["load-context", "--project", plain], data);
    expect(named.code).toBe(0);
    expect(named.stdout).toBe(
      "No context found across any source.\n\nAvailable actions:\n  - /load-context <query>    Search by keyword\n  - /create-requirements     Start new work\n  - /brainstorm              Start brainstorming\n",
    );
    expect(named.stderr).toContain(`  workbench load-context '<query>' --project ${plain}  search by keyword (/load-context <query>)`);
    expect(named.stderr).toContain('  claude "/create-requirements"');
    expect(await registeredRoots(data)).toEqual([plain]);
    // Registered and unchanged: load-context's own entry would answer it, were the folder not checked first.
    const r = await workbench(["load-context"], data, plain);
    expect([r.code, r.stdout]).toEqual([2, ""]);
    expect(r.stderr).toMatch(refusal(plain));
  });

  it("in a folder holding agent artifacts read it as --project would, and give the shell's hints beside the seed's", async () => {
    const data = makeTempDir("wb-cli-cwd-");
    const sample = fs.realpathSync((await buildSampleRepo()).targetDir);
    const named = await workbench(["load-context", "JIRA-123", "--project", sample], data);
    expect(named.code).toBe(0);
    for (let run = 0; run < 2; run++) {
      // The second run finds the project unchanged (load-context's own entry, when the build is current).
      const r = await workbench(["load-context", "JIRA-123"], data, sample);
      expect([r.code, r.stdout]).toEqual([0, named.stdout]);
      expect(r.stderr).not.toMatch(/ERROR|In a shell/);
    }
    expect(await registeredRoots(data)).toEqual([sample]);

    const missing = await workbench(["load-context", "no-such-topic-anywhere"], data, sample);
    expect(missing.code).toBe(0);
    // The seed's output contract, untouched on stdout.
    expect(missing.stdout.split("\n").slice(0, 1)).toEqual(['No context found for: "no-such-topic-anywhere"']);
    expect(missing.stdout).toContain("Suggestions:\n  - Try a broader query: /load-context anywhere (instead of no-such-topic-anywhere)\n  - Check spelling\n  - List available context: /load-context\n");
    expect(missing.stdout).not.toContain("workbench load-context");
    expect(missing.stderr).toContain("In a shell:\n  workbench load-context anywhere  a broader query (/load-context anywhere)\n  workbench load-context           list available context (/load-context)\n");

    const loader = await workbench(["loader", "why server-side sessions?"], data, sample);
    expect(loader.code).toBe(0);
    expect(loader.stdout).toMatch(/^<!-- context-loader:v1 -->/);
  }, 90_000);
});

describe("workbench --version", () => {
  it("prints package.json's version and exits 0", async () => {
    const { version } = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { version: string };
    expect(version).toMatch(/^\d+\.\d+\.\d+/);
    for (const flag of ["--version", "-V"]) {
      const r = await workbench([flag], makeTempDir("wb-cli-version-"));
      expect([r.code, r.stdout, r.stderr]).toEqual([0, `${version}\n`, ""]);
    }
  });

  it("is listed in --help", async () => {
    const r = await workbench(["--help"], makeTempDir("wb-cli-version-"));
    expect(r.stdout).toMatch(/^ {2}-V, --version +print the Workbench's version and exit$/m);
  });
});
