/**
 * `workbench reduce` and `workbench converge` on the hostile repository's run packets
 * (tests/helpers/hostile-repo.ts) and on files nested 5,000 deep: nothing outside the
 * repository is read or written, a packet folder linking out fails the reduce with its name,
 * one bad file is a named warning, and a state log is never cut when valid lines follow a
 * bad one.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { runReduceCommand } from "../../../cli/commands/reduce-command";
import { evaluatePacket } from "../../../lib/deep-context/convergence";
import { reduceContextState } from "../../../lib/deep-context/reducer";
import { loadRunView } from "../../../lib/deep-context/views";
import { buildHostileRepo, treeDigest, type HostileRepo } from "../../helpers/hostile-repo";
import { makeTempDir, removeTempDirs } from "../../helpers/project-builder";

afterAll(removeTempDirs);

async function reduce(spec: string) {
  let stdout = "";
  let stderr = "";
  const code = await runReduceCommand([spec], {}, { out: (t) => (stdout += t), err: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

/** Every file under a folder with its bytes, to say nothing was written there. */
function snapshot(dir: string): Record<string, string> {
  return treeDigest(dir);
}

/** The digests of some files of a folder (those a test put there itself). */
function snapshotOf(dir: string, names: string[]): Record<string, string> {
  const all = treeDigest(dir);
  return Object.fromEntries(Object.entries(all).filter(([k]) => names.some((n) => k.endsWith(n))));
}

describe("reduce on the hostile repository", () => {
  let repo: HostileRepo;
  let outside: Record<string, string>;
  const spec = (s: string) => path.join(repo.root, s);

  beforeEach(() => {
    repo = buildHostileRepo({ traps: ["link-out-file", "link-out-dir", "torn-log", "torn-tail", "deep-seat"], logLines: 20_000 });
    // A repository: the reduce is confined to it.
    fs.mkdirSync(path.join(repo.root, ".git"));
    outside = snapshot(repo.outside);
  });

  it("never reads a seat file that links out: a failed seat with a validation warning, named on stderr", async () => {
    const r = await reduce(spec(repo.specs.linkOut));
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`[deep-context] warning: ${repo.specs.linkOut}/context/seats/iter-003/leak.json: a link to outside the project; not read.`);
    const registry = fs.readFileSync(path.join(spec(repo.specs.linkOut), "context", "findings-registry.json"), "utf8");
    const dashboard = fs.readFileSync(path.join(spec(repo.specs.linkOut), "context", "deep-context-dashboard.md"), "utf8");
    expect(registry + dashboard + r.stdout + r.stderr).not.toContain(repo.secret);
    const parsed = JSON.parse(registry) as { seatsByIteration: Record<string, { failed: string[] }>; seatValidationWarnings: { seat: string; reason: string }[] };
    expect(parsed.seatsByIteration["3"]!.failed).toContain("leak");
    expect(parsed.seatValidationWarnings).toContainEqual({ seat: "leak", reason: "seat file not read: a link to outside the project; not read.", symbol: "", path: "", iteration: 3 });
    expect(snapshot(repo.outside)).toEqual(outside);
  });

  it("fails (exit 3, naming the folder) when the context folder links out, writing nothing anywhere", async () => {
    const project = snapshot(repo.root);
    const r = await reduce(spec(repo.specs.escape));
    expect(r.code).toBe(3);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(`[deep-context] reducer failed: The folder ${repo.specs.escape}/context is refused: a link to outside the project; not read. The reduce reads and writes nothing through it.\n`);
    expect(snapshot(repo.outside)).toEqual(outside);
    expect(fs.existsSync(path.join(repo.outside, "ctx", "findings-registry.json"))).toBe(false);
    expect(snapshot(repo.root)).toEqual(project);
  });

  it("never reads a config, state log or report that links out: each is named, in reduce, converge and the run view", async () => {
    const ctx = path.join(spec(repo.specs.tornTail), "context");
    const files: [string, string][] = [
      ["deep-context-config.json", `{"scope":"${repo.secret}"}`],
      ["context-report.md", `# Report ${repo.secret}\n`],
      ["context-report.json", `{"title":"${repo.secret}"}`],
    ];
    for (const [name, body] of files) {
      fs.writeFileSync(path.join(repo.outside, name), body);
      fs.rmSync(path.join(ctx, name), { force: true });
      fs.symlinkSync(path.join(repo.outside, name), path.join(ctx, name));
    }
    let r = await reduce(spec(repo.specs.tornTail));
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`${repo.specs.tornTail}/context/deep-context-config.json: a link to outside the project; not read. The config is read as {}.`);
    const view = await loadRunView(repo.root, `${repo.specs.tornTail}/context`);
    const named = view.warnings.join("\n");
    for (const name of ["deep-context-config.json", "context-report.md", "context-report.json"]) expect(named).toContain(`${repo.specs.tornTail}/context/${name}: a link to outside the project`);
    expect(JSON.stringify(view)).not.toContain(repo.secret);
    expect((await evaluatePacket(spec(repo.specs.tornTail))).warnings).toContain("deep-context-config.json not read: a link to outside the project; not read.");

    fs.writeFileSync(path.join(repo.outside, "state.jsonl"), `{"type":"config","scope":"${repo.secret}"}\n{"torn`);
    fs.rmSync(path.join(ctx, "deep-context-state.jsonl"));
    fs.symlinkSync(path.join(repo.outside, "state.jsonl"), path.join(ctx, "deep-context-state.jsonl"));
    r = await reduce(spec(repo.specs.tornTail));
    expect(r.code).toBe(3);
    expect(r.stderr).toBe(`[deep-context] reducer failed: ${repo.specs.tornTail}/context/deep-context-state.jsonl: a link to outside the project; not read.\n`);
    expect(fs.readFileSync(path.join(repo.outside, "state.jsonl"), "utf8")).toBe(`{"type":"config","scope":"${repo.secret}"}\n{"torn`);
    expect(snapshot(repo.outside)).toEqual({ ...outside, ...snapshotOf(repo.outside, ["deep-context-config.json", "context-report.md", "context-report.json", "state.jsonl"]) });
  });

  it("fails the same way when seats/ links out", async () => {
    const seats = path.join(spec(repo.specs.tornTail), "context", "seats");
    fs.renameSync(seats, path.join(repo.outside, "seats"));
    fs.symlinkSync(path.join(repo.outside, "seats"), seats);
    const r = await reduce(spec(repo.specs.tornTail));
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`The folder ${repo.specs.tornTail}/context/seats is refused: a link to outside the project`);
    expect(fs.existsSync(path.join(spec(repo.specs.tornTail), "context", "findings-registry.json"))).toBe(false);
  });

  it("never writes through a registry or dashboard that is a link, and replaces neither", async () => {
    const ctx = path.join(spec(repo.specs.linkOut), "context");
    const target = path.join(repo.outside, "victim.json");
    fs.writeFileSync(target, "keep me");
    fs.symlinkSync(target, path.join(ctx, "findings-registry.json"));
    let r = await reduce(spec(repo.specs.linkOut));
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("findings-registry.json is a link; it is not written through.");
    expect(fs.readFileSync(target, "utf8")).toBe("keep me");
    expect(fs.existsSync(path.join(ctx, "deep-context-dashboard.md"))).toBe(false);

    fs.rmSync(path.join(ctx, "findings-registry.json"));
    fs.symlinkSync(target, path.join(ctx, "deep-context-dashboard.md"));
    r = await reduce(spec(repo.specs.linkOut));
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("deep-context-dashboard.md is a link; it is not written through.");
    expect(fs.readFileSync(target, "utf8")).toBe("keep me");
    expect(fs.existsSync(path.join(ctx, "findings-registry.json"))).toBe(false);
    expect(fs.readdirSync(ctx).filter((n) => n.includes(".tmp."))).toEqual([]);
  });

  it("leaves the 20,000-line log with a corrupt line at a quarter whole, reads every valid line, and says so", async () => {
    const log = path.join(spec(repo.specs.bigLog), "context", "deep-context-state.jsonl");
    const before = fs.readFileSync(log);
    const r = await reduce(spec(repo.specs.bigLog));
    expect(r.code).toBe(0);
    const summary = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(summary).toMatchObject({ corruptionCount: 1, stateLogRepaired: false, stateLogDroppedBytes: 0, stateLogReading: "corrupt_lines_kept" });
    expect(Object.keys(summary).at(-1)).toBe("stateLogReading");
    expect(fs.readFileSync(log).equals(before)).toBe(true);
    expect(r.stderr).toMatch(/note: 1 line\(s\) of the state log could not be read \(first: line 5037\)/);
    const registry = JSON.parse(fs.readFileSync(path.join(spec(repo.specs.bigLog), "context", "findings-registry.json"), "utf8")) as { corruptionWarnings: { line: number }[]; stateLogRepair: unknown };
    expect(registry.corruptionWarnings.map((w) => w.line)).toEqual([5037]);
    expect(registry.stateLogRepair).toEqual({ repaired: false, droppedBytes: 0, reading: "corrupt_lines_kept" });
  });

  it("cuts a genuine torn tail as the reference does", async () => {
    const log = path.join(spec(repo.specs.tornTail), "context", "deep-context-state.jsonl");
    const before = fs.readFileSync(log);
    const r = await reduce(spec(repo.specs.tornTail));
    expect(r.code).toBe(0);
    const torn = '{"type":"event","event":"seat_dispatch","run":4,"se';
    expect(JSON.parse(r.stdout)).toMatchObject({ stateLogRepaired: true, stateLogDroppedBytes: torn.length, stateLogReading: "torn_tail_repaired" });
    expect(fs.readFileSync(log).equals(before.subarray(0, before.length - torn.length))).toBe(true);
  });

  it("reads a seat file and a config nested 5,000 deep as named warnings", async () => {
    const r = await reduce(spec(repo.specs.deepSeat));
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`${repo.specs.deepSeat}/context/seats/iter-003/deep.json: nested more than 256 levels deep; not read.`);
    expect(r.stderr).toContain(`${repo.specs.deepSeat}/context/deep-context-config.json: nested more than 256 levels deep; not read; the config is read as {}.`);
    expect(JSON.parse(r.stdout)).toMatchObject({ seatValidationWarnings: 1 });
  });
});

describe("a seat file that is a named pipe", () => {
  it("is a failed seat with a warning, and neither reduce nor converge waits on it", async () => {
    const repo = buildHostileRepo({ traps: ["fifo"] });
    const spec = path.join(repo.root, ".opencode/specs/hostile/fifo-run");
    const r = await reduce(spec);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("context/seats/iter-003/pipe.json: a named pipe; not read.");
    const registry = JSON.parse(fs.readFileSync(path.join(spec, "context", "findings-registry.json"), "utf8")) as { seatsByIteration: Record<string, { failed: string[] }> };
    expect(registry.seatsByIteration["3"]!.failed).toEqual(["pipe"]);
    const conv = await evaluatePacket(spec);
    expect(conv.warnings).toContain("seats/iter-003/pipe.json: seat file not read: a named pipe; not read.");
  });
});

describe("files nested 5,000 deep never fail reduce or converge", () => {
  const A = `${"[".repeat(5000)}${"]".repeat(5000)}`;
  const O = `${'{"a":'.repeat(5000)}1${"}".repeat(5000)}`;
  let root = "";
  const spec = () => path.join(root, "spec");
  const ctx = (...p: string[]) => path.join(root, "spec", "context", ...p);
  beforeEach(() => {
    root = makeTempDir("wb-deep-");
    fs.mkdirSync(ctx("seats", "iter-001"), { recursive: true });
    fs.writeFileSync(
      ctx("deep-context-state.jsonl"),
      '{"type":"config","scope":"x"}\n{"type":"iteration","run":1}\n{"type":"event","event":"graph_convergence","run":1,"decision":"CONTINUE","signals":{"score":0.5},"blockers":[]}\n',
    );
    fs.writeFileSync(ctx("seats", "iter-001", "ok.json"), '[{"path":"a.ts","symbol":"b","relevance":0.9}]');
  });

  // The seat shapes that made the reference-compatible reducer exit 3 ("Maximum call stack size
  // exceeded": String() of a deeply nested captured field), and the JSON.parse fallback's.
  it.each([
    ["notes", `[{"path":"a","symbol":"b","notes":${A}}]`],
    ["kind", `[{"path":"a","symbol":"b","kind":${A}}]`],
    ["path", `[{"path":${A},"symbol":"b"}]`],
    ["relevance", `[{"path":"a","symbol":"b","relevance":${A}}]`],
    ["an unread field", `[{"path":"a","symbol":"b","x":${O}}]`],
    ["the findings root", A],
    ["the JSON.parse fallback", `{"findings":[{"path":"a","symbol":"b"}],"findings":[{"path":"a","symbol":"b","signature":${A}}]}`],
  ])("a seat file nested in %s: a failed seat with a warning", (_where, body) => {
    fs.writeFileSync(ctx("seats", "iter-001", "deep.json"), body);
    for (const decoder of ["scan", "parse"] as const) {
      const r = reduceContextState(spec(), { decoder, write: false });
      expect(r.registry().seatsByIteration["1"]).toEqual({ succeeded: ["ok"], failed: ["deep"] });
      expect(r.seatValidationWarnings).toEqual([{ seat: "deep", reason: "seat file nested more than 256 levels deep; not read", symbol: "", path: "", iteration: 1 }]);
      expect(r.fileWarnings.map((w) => w.code)).toEqual(["too_deep"]);
      expect(r.summary.findings).toBe(1);
    }
  });

  it.each([
    ["config scope", "deep-context-config.json", `{"scope":${A}}`],
    ["config status", "deep-context-config.json", `{"status":${A}}`],
    ["a log line's focus", "log", `{"type":"iteration","run":2,"focus":${A}}`],
    ["a log line's run", "log", `{"type":"iteration","run":${A}}`],
    ["a log line's blockers", "log", `{"type":"event","event":"graph_convergence","run":1,"blockers":[${O}]}`],
    ["a log line's type", "log", `{"type":${A}}`],
    ["a log line's root", "log", A],
    ["coverage-graph.json", "coverage-graph.json", `{"nodes":[{"id":"a","kind":"FILE","metadata":{"x":${A}}}],"edges":[]}`],
  ])("%s: reduce and converge go on with a warning", async (_what, file, body) => {
    if (file === "log") fs.appendFileSync(ctx("deep-context-state.jsonl"), `${body}\n{"type":"event","event":"sweep_settled","run":1}\n`);
    else fs.writeFileSync(ctx(file), body);
    const r = await reduce(spec());
    expect(r.code).toBe(0);
    const conv = await evaluatePacket(spec());
    const warnings = [...conv.warnings, r.stderr].join("\n");
    expect(warnings).toMatch(/nested more than 256 levels deep/);
    if (file === "coverage-graph.json") expect(conv.graphSource.origin).toBe("derived");
    if (file === "log") expect(JSON.parse(r.stdout)).toMatchObject({ corruptionCount: 1, stateLogReading: "corrupt_lines_kept" });
  });

  it("the run view goes on too, with every deep file named", async () => {
    fs.writeFileSync(ctx("seats", "iter-001", "deep.json"), `[{"path":"a","symbol":"b","notes":${A}}]`);
    fs.writeFileSync(ctx("deep-context-config.json"), `{"scope":${A}}`);
    fs.writeFileSync(ctx("context-report.json"), `{"reuse":${A}}`);
    fs.appendFileSync(ctx("deep-context-state.jsonl"), `{"type":"iteration","run":2,"focus":${A}}\n`);
    const view = await loadRunView(root, "spec/context");
    expect(view.registry).not.toBeNull();
    expect(view.findings).toHaveLength(1);
    const named = view.warnings.join("\n");
    for (const f of ["seats/iter-001/deep.json", "deep-context-config.json", "context-report.json", "deep-context-state.jsonl line 4"]) expect(named).toContain(f);
    expect(view.stateLog).toMatchObject({ reading: "corrupt_lines_kept", corruptLineCount: 1 });
  });
});
