/**
 * A large walk hands half of a wide level to the listing worker (lib/core/fs/listing-worker.ts).
 * Whatever the tree holds (loops, links out, pipes, hard links, aliases, a budget that runs
 * out), the walk must say and return exactly what the one-thread walk does.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { listingWorkerRunning, stopListingWorker, workerListingsTaken } from "../../../../lib/core/fs/listing-worker";
import { walkTree, type WalkOptions } from "../../../../lib/core/fs/walk";

let base: string;
let root: string;

beforeAll(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "wb-walkpar-")));
  root = path.join(base, "project");
  const area = path.join(root, "area");
  for (let i = 0; i < 24; i++) {
    const d = path.join(area, `s${String(i).padStart(2, "0")}`, "context");
    fs.mkdirSync(d, { recursive: true });
    fs.writeFileSync(path.join(d, "..", "state.json"), `{"i":${i}}`);
    fs.writeFileSync(path.join(d, "notes.md"), "x".repeat(i));
  }
  fs.writeFileSync(path.join(base, "secret.txt"), "outside");
  fs.symlinkSync(path.join(base, "secret.txt"), path.join(area, "s03", "leak.txt"));
  fs.symlinkSync(area, path.join(area, "s20", "loop"));
  fs.symlinkSync(path.join(area, "s01"), path.join(area, "s21", "alias"));
  fs.linkSync(path.join(area, "s22", "state.json"), path.join(area, "s22", "hard.json"));
  execFileSync("mkfifo", [path.join(area, "s23", "pipe")]);
  fs.mkdirSync(path.join(area, "s19", "node_modules", "pkg"), { recursive: true });
  fs.writeFileSync(path.join(area, "s19", "node_modules", "pkg", "index.js"), "");
});

afterAll(() => {
  stopListingWorker();
  fs.rmSync(base, { recursive: true, force: true });
});

function walk(opts: WalkOptions) {
  const reports: string[] = [];
  const files = walkTree({ root, startRel: "area", startReal: path.join(root, "area"), report: (rel, code, message) => reports.push(`${code} ${rel} ${message}`) }, opts);
  return { files, reports };
}

describe("a walk shared with the listing worker", () => {
  it("returns the same files and reports as the walk on one thread, and the worker did list", () => {
    const before = workerListingsTaken();
    const shared = walk({ parallel: true });
    expect(workerListingsTaken() - before).toBeGreaterThanOrEqual(24);
    const alone = walk({ parallel: false });
    expect(shared).toEqual(alone);
    // 24 sessions of two files, less the hard-linked state.json (its second name is refused too).
    expect(alone.files).toHaveLength(24 * 2 - 1);
    expect(alone.reports.map((r) => r.split(" ").slice(0, 2).join(" ")).sort()).toEqual(
      ["hard_link area/s22/hard.json", "hard_link area/s22/state.json", "not_regular area/s23/pipe", "outside_root area/s03/leak.txt", "symlink_alias area/s21/alias", "symlink_loop area/s20/loop"].sort(),
    );
  });

  it("stops at the same entry when the budget runs out in the worker's half", () => {
    for (const maxEntries of [10, 40, 75]) {
      expect(walk({ parallel: true, maxEntries })).toEqual(walk({ parallel: false, maxEntries }));
    }
  });

  it("keeps the depth limit inside the worker's half", () => {
    expect(walk({ parallel: true, maxDepth: 1 })).toEqual(walk({ parallel: false, maxDepth: 1 }));
  });

  it("a folder removed while the worker listed is simply not there", () => {
    const shared = walk({ parallel: true });
    fs.rmSync(path.join(root, "area", "s17"), { recursive: true });
    expect(walk({ parallel: true }).files).toEqual(shared.files.filter((f) => !f.relPath.startsWith("area/s17/")));
  });

  it("an idle worker ends after a second, so its memory is not kept through the rest of a job", () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      walk({ parallel: true });
      expect(listingWorkerRunning()).toBe(true);
      vi.advanceTimersByTime(999);
      expect(listingWorkerRunning()).toBe(true);
      vi.advanceTimersByTime(1);
      expect(listingWorkerRunning()).toBe(false);
      // The next wide walk starts a new one.
      const before = workerListingsTaken();
      walk({ parallel: true });
      expect(workerListingsTaken()).toBeGreaterThan(before);
    } finally {
      vi.useRealTimers();
    }
  });
});
