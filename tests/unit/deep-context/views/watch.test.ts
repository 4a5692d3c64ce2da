import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { watchPacket } from "../../../../lib/deep-context/views/watch";
import { makeTempDir, removeTempDirs } from "../../../helpers/project-builder";

afterAll(removeTempDirs);

describe("watchPacket", () => {
  it("announces a change inside the packet, and never watches through a link to a folder outside it", async () => {
    const dir = makeTempDir("wb-watch-");
    const outside = makeTempDir("wb-watch-out-");
    fs.mkdirSync(path.join(dir, "seats", "iter-008"), { recursive: true });
    fs.writeFileSync(path.join(dir, "seats", "iter-008", "seat.json"), "[]");
    fs.writeFileSync(path.join(dir, "deep-context-state.jsonl"), "");
    fs.writeFileSync(path.join(outside, "seat.json"), "[]");
    const link = path.join(dir, "seats", "iter-009");
    fs.symlinkSync(outside, link);
    const reported: string[] = [];
    let stop: () => Promise<void> = async () => undefined;
    await new Promise<void>((resolve) => {
      stop = watchPacket(dir, (changed) => void reported.push(...changed), { debounceMs: 20, onReady: resolve });
    });
    try {
      // The changes through the link first, then the same kinds of change inside the packet (a
      // seat file edited, one added, a state line): once those are announced, a watch through
      // the link would have announced its own changes before them.
      fs.writeFileSync(path.join(outside, "seat.json"), "[1, 2, 3]");
      fs.writeFileSync(path.join(outside, "new.json"), "[]");
      const sentinels = [path.join(dir, "seats", "iter-008", "seat.json"), path.join(dir, "seats", "iter-008", "new.json"), path.join(dir, "deep-context-state.jsonl")];
      fs.writeFileSync(sentinels[0]!, "[1, 2, 3]");
      fs.writeFileSync(sentinels[1]!, "[]");
      fs.appendFileSync(sentinels[2]!, '{"type":"iteration","run":1}\n');
      await expect.poll(() => sentinels.filter((s) => !reported.includes(s)), { timeout: 10_000 }).toEqual([]);
      // chokidar may report the link itself (it is in the packet), never anything behind it.
      expect(reported.filter((p) => p.startsWith(link + path.sep) || !p.startsWith(dir + path.sep))).toEqual([]);
    } finally {
      await stop();
    }
  });
});
