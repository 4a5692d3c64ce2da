import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { watchPacket } from "../../../../lib/deep-context/views/watch";
import { makeTempDir, removeTempDirs } from "../../../helpers/project-builder";

afterAll(removeTempDirs);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("watchPacket", () => {
  it("announces a change inside the packet, and never watches through a link to a folder outside it", async () => {
    const dir = makeTempDir("wb-watch-");
    const outside = makeTempDir("wb-watch-out-");
    fs.mkdirSync(path.join(dir, "seats"));
    fs.writeFileSync(path.join(outside, "seat.json"), "[]");
    fs.symlinkSync(outside, path.join(dir, "seats", "iter-009"));
    let changes = 0;
    let stop: () => Promise<void> = async () => undefined;
    await new Promise<void>((resolve) => {
      stop = watchPacket(dir, () => void changes++, { debounceMs: 20, onReady: resolve });
    });
    try {
      // chokidar reports the link itself once, just after it is ready.
      await sleep(500);
      changes = 0;
      fs.writeFileSync(path.join(outside, "seat.json"), "[1, 2, 3]");
      fs.writeFileSync(path.join(outside, "new.json"), "[]");
      await sleep(600);
      expect(changes).toBe(0);
      fs.appendFileSync(path.join(dir, "deep-context-state.jsonl"), '{"type":"iteration","run":1}\n');
      await expect.poll(() => changes, { timeout: 5_000 }).toBeGreaterThan(0);
    } finally {
      await stop();
    }
  });
});
