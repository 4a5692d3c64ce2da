import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { truncateRegularSync } from "../../../../lib/core/fs/truncate";
import { makeTempDir, removeTempDirs } from "../../../helpers/project-builder";

afterAll(removeTempDirs);

describe("truncateRegularSync", () => {
  it("cuts a regular file in place, and zero-fills past its end", () => {
    const dir = makeTempDir("wb-trunc-");
    const f = path.join(dir, "log.jsonl");
    fs.writeFileSync(f, "0123456789");
    truncateRegularSync(f, 4);
    expect(fs.readFileSync(f, "utf8")).toBe("0123");
    truncateRegularSync(f, 6);
    expect(fs.readFileSync(f)).toEqual(Buffer.from([0x30, 0x31, 0x32, 0x33, 0, 0]));
  });

  it("never cuts through a link, a hard link or a named pipe", () => {
    const dir = makeTempDir("wb-trunc-");
    const outside = makeTempDir("wb-trunc-out-");
    const target = path.join(outside, "secret.txt");
    fs.writeFileSync(target, "keep me whole");
    fs.symlinkSync(target, path.join(dir, "link.jsonl"));
    expect(() => truncateRegularSync(path.join(dir, "link.jsonl"), 0)).toThrow(/cannot be opened/);
    fs.linkSync(target, path.join(dir, "hard.jsonl"));
    expect(() => truncateRegularSync(path.join(dir, "hard.jsonl"), 0)).toThrow(/hard link/);
    expect(fs.readFileSync(target, "utf8")).toBe("keep me whole");
    execFileSync("mkfifo", [path.join(dir, "pipe.jsonl")]);
    expect(() => truncateRegularSync(path.join(dir, "pipe.jsonl"), 0)).toThrow(/cannot be opened|not a regular/);
  });
});
