import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT, makeTempDir, removeTempDirs } from "../helpers/project-builder";
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
