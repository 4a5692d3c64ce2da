import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ESCAPES, buildHostileRepo, type HostileRepo } from "../../helpers/hostile-repo";
import { FIXTURES, makeTempDir, removeTempDirs } from "../../helpers/project-builder";
import { runWorkbench, type CliRun } from "../../helpers/run-cli";

afterAll(removeTempDirs);

// Every C0 control but newline and tab, DEL and every C1 control, as code points.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/u;

/** The ESC-1 trap text as the terminal must show it: each control spelled out. */
const SHOWN = "\\x1b]0;pwned-title\\x07\\x1b[2JExport \\x1b]8;;https://evil.example/\\x07click me\\x1b]8;;\\x07 \\u009b31mred\\u009b0m";
const NASTY = `${ESCAPES.title}${ESCAPES.clear}Export ${ESCAPES.link} ${ESCAPES.c1}`;

// A state file whose folder name carries a title sequence, a newline that would forge a
// summary line, and the single-byte CSI; it is broken JSON, so `index` names it in a warning.
const EVIL_DIR = `.claude/work/evil${ESCAPES.title}\nindexed 0 files\u009b2J`;
// A packet whose name clears the screen.
const EVIL_PACKET = `docs/packet${ESCAPES.clear}.md`;

function expectNoControls(run: CliRun): void {
  expect(run.stdout).not.toMatch(CONTROL);
  expect(run.stderr).not.toMatch(CONTROL);
}

describe("the CLI escapes terminal controls from repository text (not in --json)", () => {
  let repo: HostileRepo;
  let data: string;
  let indexed: CliRun;

  const workbench = (...args: string[]) => {
    const env: NodeJS.ProcessEnv = { ...process.env, WORKBENCH_DATA_DIR: data };
    if (!/^postgres/.test(env.DATABASE_URL ?? "")) delete env.DATABASE_URL;
    delete env.WORKBENCH_DEBUG;
    return runWorkbench(args, { env });
  };

  beforeAll(async () => {
    repo = buildHostileRepo({ traps: ["terminal-escapes", "unicode-names"] });
    fs.mkdirSync(path.join(repo.root, EVIL_DIR), { recursive: true });
    fs.writeFileSync(path.join(repo.root, EVIL_DIR, "state.json"), "{");
    fs.writeFileSync(path.join(repo.root, EVIL_PACKET), fs.readFileSync(path.join(FIXTURES, "packets/failing-packet.md"), "utf8") + `\n${NASTY}\n`);
    data = makeTempDir("wb-cli-escapes-");
    indexed = await workbench("index", repo.root, "--json");
  }, 60_000);

  it("index: progress, warnings and summary on stderr are escaped, one line each", () => {
    expect(indexed.code, indexed.stderr).toBe(0);
    expectNoControls(indexed);
    const lines = indexed.stderr.split("\n");
    expect(lines).toContain(`warning: .claude/work/evil\\x1b]0;pwned-title\\x07\\nindexed 0 files\\u009b2J/state.json: not valid JSON at line 1, column 2 (close brace expected).`);
    // The newline in the folder name cannot start a line of its own.
    expect(lines.filter((l) => l.startsWith("indexed "))).toHaveLength(1);
    expect(lines.filter((l) => l.startsWith("indexed "))[0]).toMatch(/^indexed \d+ files/);
    expect(JSON.parse(indexed.stdout)).toMatchObject({ filesTotal: expect.any(Number), warnings: expect.any(Number) });
  });

  it("load-context ESC-1 shows the sequences instead of running them", async () => {
    const r = await workbench("load-context", "ESC-1", "--project", repo.root);
    expect(r.code, r.stderr).toBe(0);
    expectNoControls(r);
    const lines = r.stdout.split("\n");
    expect(lines[0]).toBe("Context: ESC-1");
    expect(lines).toContain(`Summary: Escape ${SHOWN}.`);
    expect(lines).toContain(`    auth session ${SHOWN}`);
  });

  it("load-context without a query prints a clean inventory", async () => {
    const r = await workbench("load-context", "--project", repo.root);
    expect(r.code, r.stderr).toBe(0);
    expectNoControls(r);
    expect(r.stdout.startsWith("Available Context\n")).toBe(true);
  });

  it("loader escapes the pack; --json carries the original characters", async () => {
    // "auth session escape" alone is a trivial prompt (no walk); an action word makes the loader read docs/escape.md.
    const prompt = "fix the auth session escape bug";
    const human = await workbench("loader", "--project", repo.root, prompt);
    expect(human.code, human.stderr).toBe(0);
    expectNoControls(human);
    expect(human.stdout).toContain(`# Escape ${SHOWN}\n`);
    const json = await workbench("loader", "--json", "--project", repo.root, prompt);
    expect(json.code, json.stderr).toBe(0);
    expectNoControls(json);
    const body = JSON.parse(json.stdout) as { pack: string };
    expect(body.pack).toContain(`# Escape ${NASTY}\n`);
    expect(body.pack).toContain(`auth session ${NASTY}\n`);
  });

  it("pack validate escapes the file name in its report; --json keeps it", async () => {
    const file = path.join(repo.root, EVIL_PACKET);
    const human = await workbench("pack", "validate", file);
    expect(human.code, human.stderr).toBe(1);
    expectNoControls(human);
    const shownFile = path.join(repo.root, "docs/packet\\x1b[2J.md");
    expect(human.stdout.split("\n")[0]).toBe(`Context Packet: ${shownFile}`);
    expect(human.stdout).toContain(`${shownFile}:3:1  BLOCK  missing-out-of-scope`);
    const json = await workbench("pack", "validate", "--json", file);
    expectNoControls(json);
    expect((JSON.parse(json.stdout) as { packet: string }).packet).toContain(NASTY);
  });

  it("an error naming a hostile path is one escaped line", async () => {
    const r = await workbench("load-context", "ESC-1", "--project", path.join(repo.root, `missing${ESCAPES.title}\nERROR: forged`));
    expect(r.code).toBe(1);
    expectNoControls(r);
    expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(/^ERROR: .*missing\\x1b\]0;pwned-title\\x07\\nERROR: forged/);
  });
});
