import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readIntoSync } from "../../../../lib/core/fs/read-into";
import { ProjectFs } from "../../../../lib/core/project-fs";
import { makeTempDir, removeTempDirs } from "../../../helpers/project-builder";

afterAll(removeTempDirs);

describe("readIntoSync", () => {
  it("reads into the buffer given while the file fits, into a larger one when it does not", () => {
    const root = makeTempDir("wb-into-");
    fs.writeFileSync(path.join(root, "small.json"), "[1]");
    fs.writeFileSync(path.join(root, "big.json"), "x".repeat(100));
    const pfs = ProjectFs.openSync(root);
    const buf = Buffer.alloc(16);
    const a = readIntoSync(pfs, "small.json", { kind: "seat" }, buf);
    expect(a.buf).toBe(buf);
    expect(a.buf.toString("utf8", 0, a.length)).toBe("[1]");
    const b = readIntoSync(pfs, "big.json", { kind: "seat" }, buf);
    expect(b.buf).not.toBe(buf);
    expect(b.buf.toString("utf8", 0, b.length)).toBe("x".repeat(100));
  });

  it("refuses what ProjectFs refuses: a link out, a hard link, a named pipe, over the cap", () => {
    const root = makeTempDir("wb-into-");
    const outside = makeTempDir("wb-into-out-");
    fs.writeFileSync(path.join(outside, "secret.json"), "SECRET");
    fs.symlinkSync(path.join(outside, "secret.json"), path.join(root, "link.json"));
    fs.linkSync(path.join(outside, "secret.json"), path.join(root, "hard.json"));
    fs.writeFileSync(path.join(root, "big.json"), "x".repeat(64));
    const pfs = ProjectFs.openSync(root);
    const buf = Buffer.alloc(64, 0);
    expect(() => readIntoSync(pfs, "link.json", { kind: "seat" }, buf)).toThrow(/outside the project/);
    expect(() => readIntoSync(pfs, "hard.json", { kind: "seat" }, buf)).toThrow(/hard link/);
    expect(() => readIntoSync(pfs, "big.json", 10, buf)).toThrow(/over the 10-byte limit/);
    expect(buf.includes("SECRET")).toBe(false);
  });
});
