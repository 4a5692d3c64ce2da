import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { withDeadline } from "@/lib/core/fs/deadline";
import { ProjectFs } from "@/lib/core/project-fs";

/** Holds the event loop the way a synchronous index job in the server process does. */
function holdLoop(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // busy: nothing else on this thread may run
  }
}

const timeoutError = () => new Error("timed out");

describe("withDeadline", () => {
  it("rejects an operation that never makes progress", async () => {
    const started = Date.now();
    await expect(withDeadline(() => new Promise<never>(() => {}), 60, timeoutError)).rejects.toThrow("timed out");
    expect(Date.now() - started).toBeGreaterThanOrEqual(60);
  });

  it("resolves an operation that finished while the loop was held past the deadline", async () => {
    const result = withDeadline(
      async (d) => {
        const st = await fs.promises.stat(os.tmpdir());
        d.progress();
        return st.isDirectory();
      },
      40,
      timeoutError,
    );
    // The stat completes on the thread pool while this thread is busy far past 40 ms.
    holdLoop(300);
    await expect(result).resolves.toBe(true);
  });

  it("lets slow steps through when each one progresses within the deadline", async () => {
    const result = withDeadline(
      async (d) => {
        for (let i = 0; i < 4; i++) {
          await new Promise((r) => setTimeout(r, 30));
          d.progress();
        }
        return "done";
      },
      80,
      timeoutError,
    );
    await expect(result).resolves.toBe("done");
  });

  it("passes the operation's own error through", async () => {
    await expect(
      withDeadline(
        async () => {
          throw new Error("EIO");
        },
        1000,
        timeoutError,
      ),
    ).rejects.toThrow("EIO");
  });
});

describe("ProjectFs.readText under a held event loop", () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("reads a normal file even when the loop is held longer than the read timeout", async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "wb-deadline-"));
    fs.writeFileSync(path.join(dir, "_index.md"), "# Architecture\n");
    const pfs = ProjectFs.openSync(dir);
    const reading = pfs.readText("_index.md", { kind: "markdown", timeoutMs: 50 });
    // Let the open finish on the thread pool, then hold the loop right after it is delivered:
    // the stat and read complete meanwhile, but their callbacks wait behind the held loop.
    holdLoop(50);
    setImmediate(() => holdLoop(400));
    await expect(reading).resolves.toBe("# Architecture\n");
    expect(pfs.skipped).toEqual([]);
  });
});
