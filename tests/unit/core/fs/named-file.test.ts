import { execFileSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { WorkbenchError } from "../../../../lib/core/errors";
import { namedFileFailure, readRegularFileSync, realPathOrSelf } from "../../../../lib/core/fs/named-file";
import { makeTempDir, removeTempDirs } from "../../../helpers/project-builder";

afterAll(removeTempDirs);

const dir = makeTempDir("wb-named-file-");

/** The error readRegularFileSync throws, with how long it took to come. */
function refusal(p: string, maxBytes = 1024): { error: WorkbenchError; ms: number } {
  const t0 = Date.now();
  try {
    readRegularFileSync(p, maxBytes);
  } catch (e) {
    if (!(e instanceof WorkbenchError)) throw e;
    return { error: e, ms: Date.now() - t0 };
  }
  throw new Error(`${p} was read`);
}

describe("readRegularFileSync", () => {
  it("reads a regular file, also through a link the user named", () => {
    const file = path.join(dir, "keys.json");
    fs.writeFileSync(file, '{"a":"b"}');
    fs.symlinkSync(file, path.join(dir, "keys-link.json"));
    expect(readRegularFileSync(file, 1024).toString()).toBe('{"a":"b"}');
    expect(readRegularFileSync(path.join(dir, "keys-link.json"), 1024).toString()).toBe('{"a":"b"}');
  });

  it("refuses a named pipe at once instead of waiting for a writer", () => {
    const fifo = path.join(dir, "pipe.json");
    execFileSync("mkfifo", [fifo]);
    const { error, ms } = refusal(fifo);
    expect(ms).toBeLessThan(2000);
    expect(error.code).toBe("UNREADABLE");
    expect(error.message).toBe(`${fifo}: a named pipe, not a regular file; not read.`);
    expect(namedFileFailure(error)).toMatchObject({ reason: "not_regular", special: "a named pipe" });
  });

  it("refuses a device that would never end", () => {
    const { error } = refusal("/dev/zero");
    expect(namedFileFailure(error)).toMatchObject({ reason: "not_regular", special: "a device" });
  });

  it("refuses a socket and a folder, keeping the system's error code for each", async () => {
    const sock = path.join(dir, "s.sock");
    const server = net.createServer();
    await new Promise<void>((r) => server.listen(sock, r));
    try {
      expect(namedFileFailure(refusal(sock).error)).toMatchObject({ reason: "not_regular", errno: "ENXIO", special: "a socket" });
    } finally {
      await new Promise((r) => server.close(r));
    }
    expect(namedFileFailure(refusal(dir).error)).toMatchObject({ reason: "not_regular", errno: "EISDIR", special: "a folder" });
  });

  it("refuses a file over the limit before reading it, and names a missing one", () => {
    const big = path.join(dir, "big.json");
    fs.writeFileSync(big, "x".repeat(2000));
    const { error } = refusal(big, 1000);
    expect(error.code).toBe("TOO_LARGE");
    expect(namedFileFailure(error)).toMatchObject({ reason: "too_large" });
    const missing = refusal(path.join(dir, "nope.json")).error;
    expect(missing.code).toBe("NOT_FOUND");
    expect(namedFileFailure(missing)).toMatchObject({ reason: "missing", errno: "ENOENT" });
  });

  it("gives no details for errors it did not raise", () => {
    expect(namedFileFailure(new Error("x"))).toBeNull();
    expect(namedFileFailure(new WorkbenchError("INTERNAL", "x"))).toBeNull();
  });
});

describe("realPathOrSelf", () => {
  it("resolves links, and gives the absolute path for a missing file", () => {
    const target = path.join(dir, "real.txt");
    fs.writeFileSync(target, "x");
    fs.symlinkSync(target, path.join(dir, "alias.txt"));
    expect(realPathOrSelf(path.join(dir, "alias.txt"))).toBe(fs.realpathSync(target));
    expect(realPathOrSelf(path.join(dir, "missing", "..", "x"))).toBe(path.join(dir, "x"));
  });
});
