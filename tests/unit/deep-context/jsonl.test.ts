import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseJsonlDetailed, readStateLog, repairJsonlTail, validPrefixBytes } from "../../../lib/deep-context/jsonl";

let dir = "";
afterEach(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = "";
});
function logFile(content: string | Buffer): string {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "wb-jsonl-"));
  const f = path.join(dir, "deep-context-state.jsonl");
  fs.writeFileSync(f, content);
  return f;
}

const A = '{"type":"iteration","run":1}';
const B = '{"type":"event","event":"x"}';

describe("torn-tail repair", () => {
  it("keeps a log whose lines are all valid (blank lines too)", () => {
    const f = logFile(`${A}\n\n${B}\n`);
    expect(repairJsonlTail(f)).toEqual({ repaired: false, droppedBytes: 0 });
    expect(fs.readFileSync(f, "utf8")).toBe(`${A}\n\n${B}\n`);
  });
  it("truncates a half-written last line and reports the bytes dropped", () => {
    const f = logFile(`${A}\n${B}\n{"type":"iter`);
    expect(repairJsonlTail(f)).toEqual({ repaired: true, droppedBytes: 13 });
    expect(fs.readFileSync(f, "utf8")).toBe(`${A}\n${B}\n`);
  });
  it("drops everything from the first corrupt line on, valid lines after it included", () => {
    const f = logFile(`${A}\r\nnot json\r\n${B}\r\n`);
    const r = repairJsonlTail(f);
    expect(r.repaired).toBe(true);
    expect(fs.readFileSync(f, "utf8")).toBe(`${A}\r\n`);
    expect(r.droppedBytes).toBe(Buffer.byteLength(`not json\r\n${B}\r\n`));
  });
  it("keeps a complete record without a final newline, and trailing blanks", () => {
    expect(validPrefixBytes(`${A}\n${B}`)).toBe(Buffer.byteLength(`${A}\n${B}`));
    expect(validPrefixBytes(`${A}\n   `)).toBe(Buffer.byteLength(`${A}\n   `));
  });
  it("does nothing to a missing or empty file", () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "wb-jsonl-"));
    expect(repairJsonlTail(path.join(dir, "absent.jsonl"))).toEqual({ repaired: false, droppedBytes: 0 });
    const f = path.join(dir, "empty.jsonl");
    fs.writeFileSync(f, "");
    expect(repairJsonlTail(f)).toEqual({ repaired: false, droppedBytes: 0 });
  });
  it("counts bytes of the decoded text, like the reference (invalid UTF-8 is 3 bytes of U+FFFD)", () => {
    const f = logFile(Buffer.concat([Buffer.from('{"n":"'), Buffer.from([0xff]), Buffer.from('"}\n{"t')]));
    expect(repairJsonlTail(f)).toEqual({ repaired: true, droppedBytes: 3 });
    // 9 valid bytes became 11 decoded ones: two bytes of the torn line stay.
    expect(fs.readFileSync(f).subarray(-2).toString()).toBe('{"');
  });
});

describe("parseJsonlDetailed", () => {
  it("parses trimmed non-blank lines and reports corrupt ones without their content", () => {
    const bad = '  {"type": oops}  ';
    const { records, corruptionWarnings } = parseJsonlDetailed(`${A}\n\n${bad}\r\n${B}`);
    expect(records).toEqual([JSON.parse(A), JSON.parse(B)]);
    let message = "";
    try {
      JSON.parse(bad.trim());
    } catch (e) {
      message = (e as Error).message;
    }
    expect(corruptionWarnings).toEqual([
      { line: 3, length: bad.trim().length, sha256: crypto.createHash("sha256").update(bad.trim()).digest("hex").slice(0, 12), error: message },
    ]);
  });
  it("accepts any JSON value per line", () => {
    expect(parseJsonlDetailed("1\nnull\n[2]\n").records).toEqual([1, null, [2]]);
  });
});

describe("readStateLog", () => {
  it("repairs on disk by default", () => {
    const f = logFile(`${A}\n{"torn`);
    const r = readStateLog(f);
    expect(r.records).toEqual([JSON.parse(A)]);
    expect(r.repair).toEqual({ repaired: true, droppedBytes: 6 });
    expect(fs.readFileSync(f, "utf8")).toBe(`${A}\n`);
  });
  it("readOnly leaves the file alone and reads what the repair would leave", () => {
    for (const content of [`${A}\n{"torn`, Buffer.concat([Buffer.from(`${A}\n{"n":"`), Buffer.alloc(4, 0xff), Buffer.from('"}\n{')]), `${A}\nbad\n${B}\n`, `${A}\n`]) {
      const f = logFile(content);
      const before = fs.readFileSync(f);
      const ro = readStateLog(f, { readOnly: true });
      expect(fs.readFileSync(f).equals(before)).toBe(true);
      const rw = readStateLog(f);
      expect(ro).toEqual(rw);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
  it("a missing log is empty", () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "wb-jsonl-"));
    expect(readStateLog(path.join(dir, "none.jsonl"))).toEqual({ records: [], corruptionWarnings: [], repair: { repaired: false, droppedBytes: 0 } });
  });
});
