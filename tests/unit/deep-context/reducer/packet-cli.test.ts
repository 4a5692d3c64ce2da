import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Command } from "commander";
import { afterEach, describe, expect, it, vi } from "vitest";
import { registerReduce, runReduceCommand } from "../../../../cli/commands/reduce-command";
import { ProjectFs } from "../../../../lib/core/project-fs";
import { resolveContextArtifactRoot } from "../../../../lib/deep-context/reducer/artifact-root";
import { listDeltaFiles, listSeatIterations, readConfig } from "../../../../lib/deep-context/reducer/packet";
import { reduceContextState } from "../../../../lib/deep-context/reducer/reduce";
import { findingsRegistrySchema, reduceSummarySchema, seatFileSchema, stateRecordSchema } from "../../../../lib/deep-context/schemas";
import { writeFileAtomic, writeTextAtomic } from "../../../../lib/core/fs/atomic-write";
import { CASES, FIXTURE_DIR, ORACLE_DIR } from "../packets";

let root = "";
afterEach(() => {
  if (root) fs.rmSync(root, { recursive: true, force: true });
  root = "";
  vi.restoreAllMocks();
});
const tmp = () => (root = fs.mkdtempSync(path.join(os.tmpdir(), "wb-packet-")));
function touch(rel: string, content = "[]"): void {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), content);
}

/** The spec folder `rel` of the temp root, as shown and as read, with a file layer rooted there. */
const at = (rel: string) => ({ pfs: ProjectFs.openSync(root), spec: { abs: path.join(root, rel), rel } });

describe("artifact root (FORMATS §1.1)", () => {
  it("a root spec uses {spec}/context", () => {
    tmp();
    const { pfs, spec } = at("specs/x");
    expect(resolveContextArtifactRoot(pfs, spec)).toMatchObject({ artifactDir: path.join(root, "specs", "x", "context"), artifactRel: "specs/x/context" });
  });
  it("a child phase uses the flat packet when it is free or its own, else a new or matching -pt-NN", () => {
    tmp();
    touch("specs/parent/spec.md", "#");
    const child = path.join(root, "specs", "parent", "007-child");
    const resolve = () => {
      const { pfs, spec } = at("specs/parent/007-child");
      return resolveContextArtifactRoot(pfs, spec);
    };
    expect(resolve().subfolder).toBeNull();
    touch("specs/parent/007-child/context/deep-context-config.json", JSON.stringify({ specFolder: "specs/parent/007-child" }));
    expect(resolve().subfolder).toBeNull();
    touch("specs/parent/007-child/context/deep-context-config.json", JSON.stringify({ specFolder: "specs/parent/other" }));
    expect(resolve().subfolder).toBe("007-child-pt-01");
    touch("specs/parent/007-child/context/007-child-pt-03/deep-context-state.jsonl", `${JSON.stringify({ type: "config", specFolder: `${root}/specs/parent/007-child` })}\n`);
    expect(resolve()).toMatchObject({ subfolder: "007-child-pt-03", artifactDir: path.join(child, "context", "007-child-pt-03"), artifactRel: "specs/parent/007-child/context/007-child-pt-03" });
  });
  it("never looks above the project root for a parent spec folder", () => {
    tmp();
    touch("parent/spec.md", "#");
    touch("parent/child/.keep", "");
    const pfs = ProjectFs.openSync(path.join(root, "parent", "child"));
    // Inside the project, parent/ would make child a phase; seen from child/ as the root, it is a root spec.
    expect(resolveContextArtifactRoot(pfs, { abs: path.join(root, "parent", "child"), rel: "" }).subfolder).toBeNull();
    touch("parent/child/context/deep-context-config.json", JSON.stringify({ specFolder: "elsewhere" }));
    expect(resolveContextArtifactRoot(pfs, { abs: path.join(root, "parent", "child"), rel: "" }).subfolder).toBeNull();
    expect(resolveContextArtifactRoot(ProjectFs.openSync(root), { abs: path.join(root, "parent", "child"), rel: "parent/child" }).subfolder).toBe("child-pt-01");
  });
  it.each(["a'b", 'a"b', "a`b", "a$b", "a;b", "a|b", "a&b", "a<b", "a>b", "a\\b"])("refuses %s", (name) => {
    tmp();
    expect(() => resolveContextArtifactRoot(ProjectFs.openSync(root), { abs: `/tmp/${name}`, rel: name })).toThrow(/forbidden shell metacharacter/);
  });
});

describe("packet files", () => {
  it("lists seat files in the reference's order, label-first files merged by their seats/iter-NNN name", () => {
    tmp();
    for (const f of ["seats/iter-10/a.json", "seats/iter-2/b.json", "seats/iter-2/a10.json", "seats/iter-2/a9.json", "seats/iter-2/a.raw.json", "seats/iter-x/a.json", "seats/iter-2/notes.md"]) touch(f);
    for (const f of ["seats/a-b/iter-2/findings.json", "seats/c/iter-3/out.json", "seats/c/iter-3/out.raw.json", "seats/c/notes/x.json"]) touch(f);
    const pfs = ProjectFs.openSync(root);
    const seats = { abs: path.join(root, "seats"), rel: "seats" };
    const list = listSeatIterations(pfs, seats);
    expect(list.map((i) => [i.dirName, i.iteration, i.files.map((f) => `${f.label}:${f.layout[0]}`)])).toEqual([
      ["iter-2", 2, ["a-b:l", "a.raw:i", "a9:i", "a10:i", "b:i"]],
      ["iter-3", 3, ["c:l", "c.raw:l"]],
      ["iter-10", 10, ["a:i"]],
    ]);
    expect(listSeatIterations(pfs, seats, "reference").map((i) => i.files.length)).toEqual([4, 1]);
    expect(listSeatIterations(pfs, { abs: path.join(root, "none"), rel: "none" })).toEqual([]);
  });
  it("lists a seat file that links out of the project as a refused entry, and a folder named like one as a folder", () => {
    tmp();
    touch("seats/iter-1/a.json");
    fs.mkdirSync(path.join(root, "seats", "iter-1", "dir.json"));
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), "wb-packet-out-"));
    try {
      fs.writeFileSync(path.join(outside, "s.json"), "[]");
      fs.symlinkSync(path.join(outside, "s.json"), path.join(root, "seats", "iter-1", "leak.json"));
      const [it1] = listSeatIterations(ProjectFs.openSync(root), { abs: path.join(root, "seats"), rel: "seats" });
      expect(it1!.files.map((f) => [f.label, f.entry, f.refusal?.code ?? null])).toEqual([
        ["a", "file", null],
        ["dir", "dir", null],
        ["leak", "refused", "outside_root"],
      ]);
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });
  it("lists deltas and reads the config leniently", () => {
    tmp();
    touch("deltas/iter-002.jsonl", "");
    touch("deltas/iter-10.jsonl", "");
    touch("deltas/readme.md", "");
    const pfs = ProjectFs.openSync(root);
    expect(listDeltaFiles(pfs, "deltas").map((d) => d.iteration)).toEqual([2, 10]);
    touch("bad.json", "{");
    expect(readConfig(pfs, "bad.json")).toEqual({});
    expect(readConfig(pfs, "missing.json")).toEqual({});
    touch("null.json", "null");
    expect(readConfig(pfs, "null.json")).toBeNull();
    touch("deep.json", `{"scope":${"[".repeat(5000)}${"]".repeat(5000)}}`);
    const warnings: string[] = [];
    expect(readConfig(pfs, "deep.json", (w) => warnings.push(`${w.code}: ${w.message}`))).toEqual({});
    expect(warnings).toEqual(["too_deep: deep.json: nested more than 256 levels deep; not read; the config is read as {}."]);
  });
});

describe("atomic writes", () => {
  it("replaces the file and leaves no temp file", () => {
    tmp();
    const f = path.join(root, "out", "x.json");
    fs.mkdirSync(path.dirname(f));
    writeTextAtomic(f, "one\n");
    writeFileAtomic(f, (w) => {
      w("t");
      w("wo é\n");
    });
    expect(fs.readFileSync(f, "utf8")).toBe("two é\n");
    expect(fs.readdirSync(path.dirname(f))).toEqual(["x.json"]);
  });
  it("keeps the old file and removes the temp file when writing fails", () => {
    tmp();
    const f = path.join(root, "x.json");
    writeTextAtomic(f, "old\n");
    expect(() =>
      writeFileAtomic(f, (w) => {
        w("partial");
        throw new Error("disk full");
      }),
    ).toThrow("disk full");
    expect(fs.readFileSync(f, "utf8")).toBe("old\n");
    expect(fs.readdirSync(root)).toEqual(["x.json"]);
  });
});

describe("workbench reduce command", () => {
  const io = () => {
    const o = { out: "", err: "" };
    return { o, io: { out: (t: string) => void (o.out += t), err: (t: string) => void (o.err += t) } };
  };

  it("exits 1 with a usage line when no spec folder is given (flags do not count)", async () => {
    const { o, io: sink } = io();
    expect(await runReduceCommand(["--verbose"], {}, sink)).toBe(1);
    expect(o.err).toBe("Usage: workbench reduce <spec-folder>\n");
    expect(o.out).toBe("");
  });

  it("exits 3 with the reference's message when the reduce fails", async () => {
    const { o, io: sink } = io();
    expect(await runReduceCommand(["/tmp/a;b"], {}, sink)).toBe(3);
    expect(o.err).toBe("[deep-context] reducer failed: resolveArtifactRoot: specFolder contains forbidden shell metacharacter(s); refusing to proceed\n");
  });

  it("is registered with --help, ignores unknown flags and honours --reference-layout-only", async () => {
    tmp();
    CASES["layouts-label-first"]!.build(root);
    const spec = path.join(root, CASES["layouts-label-first"]!.spec);
    const out = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    const err = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const run = async (argv: string[]) => {
      let code = -1;
      const program = new Command("workbench").exitOverride();
      registerReduce(program, (c) => (code = c));
      await program.parseAsync(argv, { from: "user" });
      return code;
    };
    expect(await run(["reduce", "--unknown-flag", spec])).toBe(0);
    const summary = JSON.parse(String(out.mock.calls.at(-1)![0])) as { findings: number };
    expect(summary.findings).toBe(4);
    expect(String(err.mock.calls.at(-1)![0])).toMatch(/^\[deep-context\] note: read 7 seat file\(s\) in the seats\/\{label\}\/iter-NNN\/ layout/);
    expect(await run(["reduce", "--reference-layout-only", spec])).toBe(0);
    expect((JSON.parse(String(out.mock.calls.at(-1)![0])) as { findings: number }).findings).toBe(0);
    let help = "";
    out.mockImplementation((s) => ((help += String(s)), true));
    await expect(run(["reduce", "--help"])).rejects.toMatchObject({ exitCode: 0 });
    expect(help).toContain("Usage: workbench reduce [options] [spec-folder]");
    expect(help).toContain("--reference-layout-only");
  });
});

describe("schemas", () => {
  it("accept the real fixture's state log and seat file", () => {
    const ctx = path.join(FIXTURE_DIR, "sqlite-to-turso", "context");
    for (const line of fs.readFileSync(path.join(ctx, "deep-context-state.jsonl"), "utf8").split("\n").filter(Boolean)) {
      expect(stateRecordSchema.safeParse(JSON.parse(line)).success).toBe(true);
    }
    expect(seatFileSchema.safeParse(JSON.parse(fs.readFileSync(path.join(ctx, "seats", "iter-003", "mimo-c.json"), "utf8"))).success).toBe(true);
    expect(seatFileSchema.safeParse({ findings: [{ path: "a", kind: "pattern" }] }).success).toBe(false);
  });
  it("describe every registry the reference wrote, and our summary", () => {
    for (const name of fs.readdirSync(ORACLE_DIR)) {
      const f = path.join(ORACLE_DIR, name, "findings-registry.json");
      if (!fs.existsSync(f)) continue;
      const parsed = findingsRegistrySchema.safeParse(JSON.parse(fs.readFileSync(f, "utf8")));
      expect(parsed.error?.issues ?? [], name).toEqual([]);
    }
    tmp();
    CASES["real-sqlite-to-turso"]!.build(root);
    expect(reduceSummarySchema.safeParse(reduceContextState(path.join(root, CASES["real-sqlite-to-turso"]!.spec)).summary).success).toBe(true);
  });
});
