import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ProjectFs } from "../../../lib/core/project-fs";
import { createHash } from "node:crypto";
import { SETTLE_MS, packetFingerprint, packetStates, packetVersion, settledFingerprint } from "../../../lib/deep-context/run-cache";

let dir: string;
let outside: string;
/** The fingerprint of the whole temp folder (the project root here). */
const fp = () => packetFingerprint(ProjectFs.openSync(dir), "");
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "wb-fp-"));
  outside = fs.mkdtempSync(path.join(os.tmpdir(), "wb-fp-out-"));
  fs.mkdirSync(path.join(dir, "iter-001"));
  fs.writeFileSync(path.join(dir, "iter-001", "a.json"), "[]");
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(outside, { recursive: true, force: true });
});

describe("packetFingerprint", () => {
  it("changes when an empty folder appears (the reducer records an iteration folder without seats)", () => {
    const before = fp();
    fs.mkdirSync(path.join(dir, "iter-002"));
    expect(fp()).not.toBe(before);
  });

  it("follows links inside the project, as the readers do", () => {
    fs.mkdirSync(path.join(dir, "shared"));
    fs.writeFileSync(path.join(dir, "shared", "b.json"), "[]");
    fs.symlinkSync(path.join(dir, "shared", "b.json"), path.join(dir, "iter-001", "b.json"));
    const before = fp();
    expect(before).toContain(path.join("iter-001", "b.json"));
    fs.writeFileSync(path.join(dir, "shared", "b.json"), "[1, 2]");
    expect(fp()).not.toBe(before);
  });

  it("leaves out links to outside the project, which no reader follows: their targets are never looked at", () => {
    fs.writeFileSync(path.join(outside, "b.json"), "[]");
    fs.symlinkSync(path.join(outside, "b.json"), path.join(dir, "iter-001", "b.json"));
    fs.symlinkSync(outside, path.join(dir, "iter-002"));
    const before = fp();
    expect(before).not.toContain("b.json");
    expect(before).not.toContain("iter-002");
    fs.writeFileSync(path.join(outside, "b.json"), "[1, 2]");
    expect(fp()).toBe(before);
  });

  it("changes when a file is replaced by another of the same size (a rename over it)", () => {
    const before = fp();
    const mtime = fs.statSync(path.join(dir, "iter-001", "a.json")).mtime;
    fs.writeFileSync(path.join(dir, "x.tmp"), "{}");
    fs.utimesSync(path.join(dir, "x.tmp"), mtime, mtime);
    fs.renameSync(path.join(dir, "x.tmp"), path.join(dir, "iter-001", "a.json"));
    expect(fp()).not.toBe(before);
  });
});

describe("settledFingerprint", () => {
  it("is null while a file changed within SETTLE_MS, and the fingerprint after", () => {
    const changed = fs.statSync(path.join(dir, "iter-001", "a.json")).ctimeMs;
    const pfs = ProjectFs.openSync(dir);
    expect(settledFingerprint(pfs, "", changed + SETTLE_MS / 2)).toBeNull();
    expect(settledFingerprint(pfs, "", changed + SETTLE_MS + 1)).toBe(fp());
  });
});

describe("packetStates", () => {
  // The spec folder is the temp folder; the run folder is iter-001 inside it, beside a sibling run.
  const ownHash = (rel: string) =>
    createHash("sha256")
      .update(packetFingerprint(ProjectFs.openSync(dir), rel))
      .digest("hex")
      .slice(0, 32);

  it("gives the spec folder's fingerprint and the run folder's version from one walk, as walking each would", () => {
    fs.mkdirSync(path.join(dir, "iter-001", "seats"));
    fs.writeFileSync(path.join(dir, "iter-001", "seats", "s.json"), "{}");
    fs.mkdirSync(path.join(dir, "iter-001x"));
    fs.writeFileSync(path.join(dir, "iter-001x", "a.json"), "[]");
    const pfs = ProjectFs.openSync(dir);
    const states = packetStates(pfs, "iter-001");
    expect(states.specFingerprint).toBe(fp());
    expect(states.version).toBe(ownHash("iter-001"));
    expect(packetVersion(pfs, "iter-001")).toBe(states.version);
  });

  it("changes the version with a file of the run, not with a sibling's", () => {
    const pfs = ProjectFs.openSync(dir);
    const before = packetStates(pfs, "iter-001");
    fs.mkdirSync(path.join(dir, "iter-002"));
    fs.writeFileSync(path.join(dir, "iter-002", "b.json"), "[]");
    const sibling = packetStates(pfs, "iter-001");
    expect(sibling.version).toBe(before.version);
    expect(sibling.specFingerprint).not.toBe(before.specFingerprint);
    fs.appendFileSync(path.join(dir, "iter-001", "a.json"), " ");
    expect(packetStates(pfs, "iter-001").version).not.toBe(before.version);
  });
});
