import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { processAlive } from "../../../lib/core/process-alive";

describe("processAlive", () => {
  it("is true for this process and false for one that has ended", () => {
    expect(processAlive(process.pid)).toBe(true);
    const ended = spawnSync(process.execPath, ["-e", "0"]);
    expect(ended.status).toBe(0);
    expect(processAlive(ended.pid)).toBe(false);
  });
});
