/**
 * A lock's record is moved in by renaming the creator's temp file over an empty exclusive claim
 * (lib/memory/lock.ts), so a creator killed between the two leaves an empty lock whose owner is
 * still known from its temp file: confirmed dead, it is reclaimed; alive, elsewhere or unknown, it
 * is left alone (tests/db/kill-memory-apply.test.ts kills real applies at every step).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ProjectFs } from "../../../lib/core/project-fs";
import { acquireLock, breakStaleLock, describeLock, readLockStatus } from "../../../lib/memory/lock";

const LOCK = "memory.yml.lock";
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function folder(): { dir: string; pfs: ProjectFs } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wb-lock-claim-"));
  dirs.push(dir);
  return { dir, pfs: ProjectFs.openSync(dir) };
}

const record = (owner: string, token: string) => JSON.stringify({ owner, created_at: "2026-02-10T12:00:00Z", task_id: "workbench-apply", proposal_id: "p", token }) + "\n";
const DEAD = `999999999@${os.hostname()}`;
const LIVE = `${process.pid}@${os.hostname()}`;

/** What a creator killed between its claim and its rename leaves: an empty lock and its temp file. */
function cutOff(dir: string, owner: string, token: string): void {
  fs.writeFileSync(path.join(dir, `${LOCK}.tmp.${owner.split("@")[0]}.${token}`), record(owner, token));
  if (!fs.existsSync(path.join(dir, LOCK))) fs.writeFileSync(path.join(dir, LOCK), "");
}

describe("a lock claimed empty, its record moved in after", () => {
  it("is taken whole: the lock holds the record, no temp file stays, and release removes it", () => {
    const { dir, pfs } = folder();
    const held = acquireLock(pfs, LOCK, { taskId: "t", proposalId: "p" });
    expect(fs.readdirSync(dir)).toEqual([LOCK]);
    expect(readLockStatus(pfs, LOCK)).toMatchObject({ record: held.record, ownerAlive: true, stale: false });
    expect(readLockStatus(pfs, LOCK)).not.toHaveProperty("creators");
    expect(() => acquireLock(pfs, LOCK, { taskId: "t2", proposalId: "p" })).toThrow(expect.objectContaining({ code: "CONFLICT" }));
    expect(fs.readdirSync(dir)).toEqual([LOCK]);
    held.release();
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it("cut off by a dead creator: stale, its owner named, and removed with the temp file", () => {
    const { dir, pfs } = folder();
    cutOff(dir, DEAD, "aaaaaaaaaaaa");
    const status = readLockStatus(pfs, LOCK)!;
    expect(status).toMatchObject({ record: null, ownerAlive: false, stale: true, staleReasons: ["unreadable", "owner_dead"] });
    expect(status.creators).toEqual([{ file: `${LOCK}.tmp.999999999.aaaaaaaaaaaa`, record: expect.objectContaining({ owner: DEAD }) }]);
    expect(describeLock(status)).toContain(`an empty lock, cut off before its record was moved in by ${DEAD}`);
    expect(() => acquireLock(pfs, LOCK, { taskId: "t", proposalId: "p" })).toThrow(expect.objectContaining({ code: "CONFLICT" }));
    breakStaleLock(pfs, LOCK);
    expect(fs.readdirSync(dir)).toEqual([]);
    acquireLock(pfs, LOCK, { taskId: "t", proposalId: "p" }).release();
  });

  it("with a live creator's temp file beside it (one may be claiming it right now): held, never removed", () => {
    const { dir, pfs } = folder();
    cutOff(dir, DEAD, "aaaaaaaaaaaa");
    cutOff(dir, LIVE, "bbbbbbbbbbbb");
    expect(readLockStatus(pfs, LOCK)).toMatchObject({ ownerAlive: true, stale: false });
    expect(() => breakStaleLock(pfs, LOCK)).toThrow(expect.objectContaining({ code: "GATE_REFUSED" }));
    expect(fs.readdirSync(dir)).toHaveLength(3);
  });

  it("whose creators cannot be checked (another host, or no readable temp file): unknown, never removed", () => {
    const { dir, pfs } = folder();
    cutOff(dir, DEAD, "aaaaaaaaaaaa");
    cutOff(dir, "4242@some-other-host", "cccccccccccc");
    expect(readLockStatus(pfs, LOCK)).toMatchObject({ ownerAlive: null, stale: false });
    expect(() => breakStaleLock(pfs, LOCK)).toThrow(expect.objectContaining({ code: "GATE_REFUSED" }));

    const other = folder();
    fs.writeFileSync(path.join(other.dir, LOCK), "");
    // A temp file cut off before its record was written belongs to a creator that never got to the claim.
    fs.writeFileSync(path.join(other.dir, `${LOCK}.tmp.999999999.dddddddddddd`), "");
    const status = readLockStatus(other.pfs, LOCK)!;
    expect(status).toMatchObject({ record: null, ownerAlive: null, stale: false });
    expect(status).not.toHaveProperty("creators");
    expect(() => breakStaleLock(other.pfs, LOCK)).toThrow(expect.objectContaining({ code: "GATE_REFUSED" }));
  });

  it("claimed anew by a live creator while it is being removed: put back, and the removal refused", () => {
    const { dir, pfs } = folder();
    cutOff(dir, DEAD, "aaaaaaaaaaaa");
    const reclaim = () => {
      fs.rmSync(path.join(dir, LOCK));
      cutOff(dir, LIVE, "bbbbbbbbbbbb");
    };
    expect(() => breakStaleLock(pfs, LOCK, "memory lock", { beforeMove: reclaim })).toThrow(expect.objectContaining({ code: "CONFLICT" }));
    expect(fs.readFileSync(path.join(dir, LOCK), "utf8")).toBe("");
    expect(readLockStatus(pfs, LOCK)).toMatchObject({ ownerAlive: true, stale: false });
  });
});
