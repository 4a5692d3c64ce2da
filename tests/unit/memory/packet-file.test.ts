import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createPacketFile } from "../../../lib/memory/packet-file";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wb-packet-file-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("creating a context packet", () => {
  it("takes the next free number, never replaces a packet, and leaves no temp file", () => {
    expect(createPacketFile(dir, "one\n")).toBe("context_001.md");
    // Someone else's packet with a gap before it: the next one goes after the highest.
    fs.writeFileSync(path.join(dir, "context_004.md"), "theirs\n");
    expect(createPacketFile(dir, "two\n")).toBe("context_005.md");
    expect(fs.readFileSync(path.join(dir, "context_001.md"), "utf8")).toBe("one\n");
    expect(fs.readFileSync(path.join(dir, "context_004.md"), "utf8")).toBe("theirs\n");
    expect(fs.readFileSync(path.join(dir, "context_005.md"), "utf8")).toBe("two\n");
    expect(fs.readdirSync(dir).filter((n) => n.includes(".tmp."))).toEqual([]);
  });

  it("gives each of many saves its own file", () => {
    const sub = fs.mkdtempSync(path.join(dir, "many-"));
    const names = Array.from({ length: 20 }, (_, i) => createPacketFile(sub, `packet ${i}\n`));
    expect(new Set(names).size).toBe(20);
    names.forEach((n, i) => expect(fs.readFileSync(path.join(sub, n), "utf8")).toBe(`packet ${i}\n`));
  });
});
