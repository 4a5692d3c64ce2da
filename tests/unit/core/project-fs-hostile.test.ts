/**
 * The file layer against a repository built to abuse it: every trap is refused with a
 * reason naming the file, nothing outside the root is read or written, and nothing hangs.
 */
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WorkbenchError } from "../../../lib/core/errors";
import { refusalOf } from "../../../lib/core/fs/refusal";
import { ProjectFs } from "../../../lib/core/project-fs";
import { ProjectBuilder, makeTempDir, removeTempDirs } from "../../helpers/project-builder";

afterAll(removeTempDirs);

function refusal(fn: () => unknown): string | null {
  try {
    fn();
  } catch (e) {
    if (e instanceof WorkbenchError) return refusalOf(e) ?? e.code;
    throw e;
  }
  return null;
}

async function refusalAsync(p: Promise<unknown>): Promise<string | null> {
  try {
    await p;
  } catch (e) {
    if (e instanceof WorkbenchError) return refusalOf(e) ?? e.code;
    throw e;
  }
  return null;
}

describe("ProjectFs against hostile files", () => {
  let b: ProjectBuilder;
  let outside: string;
  let pfs: ProjectFs;

  beforeAll(() => {
    outside = makeTempDir("wb-outside-");
    fs.writeFileSync(path.join(outside, "secret.md"), "SECRET");
    b = new ProjectBuilder()
      .file("docs/ok.md", "# ok\n")
      .file("docs/loop/_index.md", "# loop\n")
      .symlink("docs/loop/self", ".")
      .symlink("docs/loop/up", "..")
      .symlink("docs/loop/a/back", "..")
      .symlink("docs/out.md", path.join(outside, "secret.md"))
      .symlink("docs/alias.md", "ok.md")
      .symlink("docs/dangling.md", "nowhere.md")
      .file("docs/binary.md", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 1, 2]))
      .file("docs/latin1.md", Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    execFileSync("mkfifo", [b.abs("docs/fifo.md")]);
    fs.linkSync(path.join(outside, "secret.md"), b.abs("docs/hard.md"));
    pfs = ProjectFs.openSync(b.root);
  });

  it("refuses a named pipe at once instead of waiting for a writer (sync and async)", async () => {
    const started = Date.now();
    expect(refusal(() => pfs.readTextSync("docs/fifo.md"))).toBe("not_regular");
    expect(await refusalAsync(pfs.readText("docs/fifo.md"))).toBe("not_regular");
    expect(Date.now() - started).toBeLessThan(2000);
    expect(pfs.skipped.find((w) => w.relPath === "docs/fifo.md")?.message).toMatch(/named pipe/);
  });

  it("refuses a socket file", () => {
    const sock = b.abs("docs/sock.md");
    execFileSync(process.execPath, ["-e", `require("net").createServer().listen(${JSON.stringify(sock)},()=>process.exit(0))`]);
    expect(refusal(() => pfs.readTextSync("docs/sock.md"))).toBe("not_regular");
  });

  it("refuses a hard link: its other name may lie outside the project", () => {
    expect(refusal(() => pfs.readTextSync("docs/hard.md"))).toBe("hard_link");
    expect(pfs.walkSync("docs").map((f) => f.relPath)).not.toContain("docs/hard.md");
  });

  it("refuses a link out of the root and names it", async () => {
    expect(await refusalAsync(pfs.readText("docs/out.md"))).toBe("outside_root");
    expect(pfs.skipped.some((w) => w.relPath === "docs/out.md" && w.code === "outside_root")).toBe(true);
  });

  it("refuses binary content and reads invalid UTF-8 with U+FFFD, reporting the byte offset", () => {
    expect(refusal(() => pfs.readTextSync("docs/binary.md"))).toBe("binary");
    expect(pfs.readTextSync("docs/latin1.md")).toBe("caf\uFFFD\n");
    expect(pfs.skipped.find((w) => w.relPath === "docs/latin1.md")).toMatchObject({ code: "invalid_utf8", message: expect.stringContaining("byte 3") });
  });

  it("lists a folder without its loops, reporting each link back", () => {
    expect(pfs.listSync("docs/loop").map((e) => e.name)).toEqual(["_index.md", "a"]);
    expect(pfs.listSync("docs/loop/a")).toEqual([]);
    const loops = pfs.skipped.filter((w) => w.code === "symlink_loop").map((w) => w.relPath);
    expect(loops).toEqual(expect.arrayContaining(["docs/loop/self", "docs/loop/up", "docs/loop/a/back"]));
  });

  it("walks a tree of loops once: each real file listed once, every loop reported, nothing outside", () => {
    const local = ProjectFs.openSync(b.root);
    const files = local.walkSync("docs").map((f) => f.relPath);
    expect(files).toEqual(["docs/binary.md", "docs/latin1.md", "docs/loop/_index.md", "docs/ok.md"]);
    const codes = new Map(local.skipped.map((w) => [w.relPath, w.code]));
    expect(codes.get("docs/loop/self")).toBe("symlink_loop");
    expect(codes.get("docs/loop/up")).toBe("symlink_loop");
    expect(codes.get("docs/loop/a/back")).toBe("symlink_loop");
    expect(codes.get("docs/alias.md")).toBe("symlink_alias");
    expect(codes.get("docs/out.md")).toBe("outside_root");
    expect(codes.get("docs/fifo.md")).toBe("not_regular");
    expect(codes.get("docs/hard.md")).toBe("hard_link");
    expect(codes.get("docs/dangling.md")).toBe("unreadable");
  });

  it("follows a link to a folder elsewhere in the root once, under the link's path", () => {
    const t = new ProjectBuilder().file("shared/notes.md", "n").symlink("docs/shared", "../shared").symlink("docs/again", "../shared");
    const local = ProjectFs.openSync(t.root);
    expect(local.walkSync("docs").map((f) => f.relPath)).toEqual(["docs/again/notes.md"]);
    expect(local.skipped).toEqual([expect.objectContaining({ relPath: "docs/shared", code: "symlink_alias" })]);
  });

  it("stops a walk at its entry budget and says so", () => {
    const t = new ProjectBuilder();
    for (let i = 0; i < 30; i++) t.file(`many/f${String(i).padStart(2, "0")}.md`, "x");
    const local = ProjectFs.openSync(t.root);
    expect(local.walkSync("many", { maxEntries: 10 })).toHaveLength(10);
    expect(local.skipped).toEqual([expect.objectContaining({ code: "walk_budget", message: expect.stringContaining("10 entries") })]);
  });

  it("reports a folder deeper than the system's path limit instead of failing", () => {
    const t = new ProjectBuilder().dir("deep");
    const seg = "d".repeat(200);
    execFileSync("bash", ["-c", `cd ${JSON.stringify(t.abs("deep"))} && for i in $(seq 1 24); do mkdir ${seg} && cd ${seg}; done && printf x > f.md`]);
    const local = ProjectFs.openSync(t.root);
    expect(local.walkSync("deep", { maxDepth: 40 })).toEqual([]);
    const w = local.skipped.find((x) => x.code === "path_too_long")!;
    expect(w.relPath.length).toBeGreaterThan(4096);
    // The message names the path by its two ends: readable on a page and in a terminal.
    expect(w.message.length).toBeLessThan(300);
    expect(w.message).toContain("…");
  });

  it("reads a file that grows while it is read only up to the size it had when opened", async () => {
    const t = new ProjectBuilder().file("grow.log", "a".repeat(1 << 20));
    const local = ProjectFs.openSync(t.root);
    const writer = spawn(process.execPath, ["-e", `const fs=require("fs");const fd=fs.openSync(${JSON.stringify(t.abs("grow.log"))},"a");const b=Buffer.alloc(65536,98);for(let i=0;i<256;i++)fs.writeSync(fd,b);`]);
    try {
      for (let i = 0; i < 10; i++) {
        const text = await local.readText("grow.log", { maxBytes: 1 << 30 });
        expect(text.length).toBeGreaterThanOrEqual(1 << 20);
        // Whatever size was seen at open is what was read: never a torn multi-byte tail or an endless read.
        expect(/^a+b*$/.test(text)).toBe(true);
      }
    } finally {
      writer.kill();
    }
  });

  it("refuses a file over its kind's cap before reading it", () => {
    const t = new ProjectBuilder().file("big.md", "x".repeat(3 * 1024 * 1024));
    const local = ProjectFs.openSync(t.root);
    expect(refusal(() => local.readTextSync("big.md", { kind: "markdown" }))).toBe("too_large");
    expect(local.readTextSync("big.md", { kind: "log" })).toHaveLength(3 * 1024 * 1024);
  });

  it("says in words why a path cannot be read", () => {
    expect(pfs.whyNotReadable("docs/fifo.md")).toBe("is a named pipe");
    expect(pfs.whyNotReadable("docs/out.md")).toBe("links outside the project");
    expect(pfs.whyNotReadable("docs/hard.md")).toBe("is a hard link");
    expect(pfs.whyNotReadable("docs/nothing.md")).toBe("is missing");
    expect(pfs.whyNotReadable("docs/ok.md")).toBeNull();
    expect(pfs.realRelSync("docs/loop/up/ok.md")).toBe("docs/ok.md");
  });
});

describe("ProjectFs writes", () => {
  it("writes inside the root atomically, creating real folders", () => {
    const b = new ProjectBuilder();
    const pfs = ProjectFs.openSync(b.root);
    pfs.writeTextAtomicSync("a/b/c.md", "one");
    pfs.writeTextAtomicSync("a/b/c.md", "two");
    expect(fs.readFileSync(b.abs("a/b/c.md"), "utf8")).toBe("two");
    expect(fs.readdirSync(b.abs("a/b"))).toEqual(["c.md"]);
  });

  it("never writes through a folder that links outside the root", () => {
    const outside = makeTempDir("wb-outside-");
    const b = new ProjectBuilder().symlink("spec/context", outside);
    const pfs = ProjectFs.openSync(b.root);
    expect(() => pfs.writeTextAtomicSync("spec/context/findings-registry.json", "{}")).toThrow(/outside the project/);
    expect(() => pfs.ensureDirSync("spec/context/seats")).toThrow(/outside the project/);
    expect(fs.readdirSync(outside)).toEqual([]);
  });

  it("never writes through a file that is a link, even one inside the root", () => {
    const outside = makeTempDir("wb-outside-");
    fs.writeFileSync(path.join(outside, "victim.txt"), "keep");
    const b = new ProjectBuilder().file("real.md", "r").symlink("out.md", path.join(outside, "victim.txt")).symlink("in.md", "real.md");
    const pfs = ProjectFs.openSync(b.root);
    expect(() => pfs.writeTextAtomicSync("out.md", "x")).toThrow(/is a link/);
    expect(() => pfs.writeTextAtomicSync("in.md", "x")).toThrow(/is a link/);
    expect(fs.readFileSync(path.join(outside, "victim.txt"), "utf8")).toBe("keep");
    expect(fs.readFileSync(b.abs("real.md"), "utf8")).toBe("r");
  });

  it("refuses paths that leave the root lexically", () => {
    const b = new ProjectBuilder();
    const pfs = ProjectFs.openSync(b.root);
    expect(() => pfs.writablePathSync("../escape.md")).toThrow(/outside the project/);
    expect(() => pfs.writablePathSync("/etc/passwd")).toThrow(/outside the project/);
    expect(fs.existsSync(path.join(path.dirname(b.root), "escape.md"))).toBe(false);
  });
});
