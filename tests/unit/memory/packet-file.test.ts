import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { ProjectFs } from "../../../lib/core/project-fs";
import { createPacketFile } from "../../../lib/memory/packet-file";

const base = fs.mkdtempSync(path.join(os.tmpdir(), "wb-packet-file-"));
/** A project whose .coord folder is `dir`. */
const project = (name: string) => {
  const root = path.join(base, name);
  fs.mkdirSync(path.join(root, ".coord"), { recursive: true });
  return { pfs: ProjectFs.openSync(root), coord: path.join(root, ".coord") };
};
const { pfs: mainPfs, coord: dir } = project("main");
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

describe("creating a context packet", () => {
  it("takes the next free number, never replaces a packet, and leaves no temp file", () => {
    expect(createPacketFile(mainPfs, "one\n")).toBe("context_001.md");
    // Someone else's packet with a gap before it: the next one goes after the highest.
    fs.writeFileSync(path.join(dir, "context_004.md"), "theirs\n");
    expect(createPacketFile(mainPfs, "two\n")).toBe("context_005.md");
    expect(fs.readFileSync(path.join(dir, "context_001.md"), "utf8")).toBe("one\n");
    expect(fs.readFileSync(path.join(dir, "context_004.md"), "utf8")).toBe("theirs\n");
    expect(fs.readFileSync(path.join(dir, "context_005.md"), "utf8")).toBe("two\n");
    expect(fs.readdirSync(dir).filter((n) => n.includes(".tmp."))).toEqual([]);
  });

  it("moves on to the next number when another save took the one it counted on", () => {
    const { pfs, coord: sub } = project("race");
    fs.writeFileSync(path.join(sub, "context_001.md"), "the other save\n");
    // The listing it numbers from was read before the other save landed.
    const listing = vi.spyOn(fs, "readdirSync").mockReturnValueOnce([] as never);
    const link = vi.spyOn(fs, "linkSync");
    expect(createPacketFile(pfs, "mine\n")).toBe("context_002.md");
    expect(listing).toHaveBeenCalledTimes(1);
    // context_001.md was tried first and refused, then context_002.md taken.
    expect(link.mock.calls.map((c) => path.basename(String(c[1])))).toEqual(["context_001.md", "context_002.md"]);
    expect(fs.readFileSync(path.join(sub, "context_001.md"), "utf8")).toBe("the other save\n");
    expect(fs.readFileSync(path.join(sub, "context_002.md"), "utf8")).toBe("mine\n");
  });

  it("creates the file exclusively where hard links are not supported", () => {
    const { pfs, coord: sub } = project("nolink");
    fs.writeFileSync(path.join(sub, "context_001.md"), "the other save\n");
    vi.spyOn(fs, "readdirSync").mockReturnValueOnce([] as never);
    const link = vi.spyOn(fs, "linkSync").mockImplementation(() => {
      throw Object.assign(new Error("links not supported"), { code: "EPERM" });
    });
    expect(createPacketFile(pfs, "mine\n")).toBe("context_002.md");
    expect(link).toHaveBeenCalledTimes(2);
    expect(fs.readFileSync(path.join(sub, "context_001.md"), "utf8")).toBe("the other save\n");
    expect(fs.readFileSync(path.join(sub, "context_002.md"), "utf8")).toBe("mine\n");
  });

  it("gives each of many saves its own file", () => {
    const { pfs, coord: sub } = project("many");
    const names = Array.from({ length: 20 }, (_, i) => createPacketFile(pfs, `packet ${i}\n`));
    expect(new Set(names).size).toBe(20);
    names.forEach((n, i) => expect(fs.readFileSync(path.join(sub, n), "utf8")).toBe(`packet ${i}\n`));
  });
});
