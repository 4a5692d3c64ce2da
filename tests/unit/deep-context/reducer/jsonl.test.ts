import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ProjectFs } from "../../../../lib/core/project-fs";
import { interpretStateLog, parseJsonlDetailed, readStateLog, validPrefixBytes } from "../../../../lib/deep-context/reducer/jsonl";

let dir = "";
let outside = "";
afterEach(() => {
  for (const d of [dir, outside]) if (d) fs.rmSync(d, { recursive: true, force: true });
  dir = "";
  outside = "";
});
const LOG = "deep-context-state.jsonl";
function logFile(content: string | Buffer): { pfs: ProjectFs; file: string } {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "wb-jsonl-"));
  const file = path.join(dir, LOG);
  fs.writeFileSync(file, content);
  return { pfs: ProjectFs.openSync(dir), file };
}

const A = '{"type":"iteration","run":1}';
const B = '{"type":"event","event":"x"}';
const C = '{"type":"iteration","run":2}';
const DEEP = `{"type":"event","nest":${"[".repeat(5000)}${"]".repeat(5000)}}`;

function parseError(text: string): string {
  try {
    JSON.parse(text);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error(`${text} parses`);
}
const sha = (line: string) => crypto.createHash("sha256").update(line).digest("hex").slice(0, 12);

describe("the state log's torn tail (the reference's repair)", () => {
  it("keeps a log whose lines are all valid (blank lines too)", () => {
    const { pfs, file } = logFile(`${A}\n\n${B}\n`);
    const r = readStateLog(pfs, LOG);
    expect(r).toMatchObject({ reading: "intact", repair: { repaired: false, droppedBytes: 0 }, corruptionWarnings: [] });
    expect(r.records).toEqual([JSON.parse(A), JSON.parse(B)]);
    expect(fs.readFileSync(file, "utf8")).toBe(`${A}\n\n${B}\n`);
  });
  it("cuts a half-written last line off the file and reports the bytes dropped", () => {
    const { pfs, file } = logFile(`${A}\n${B}\n{"type":"iter`);
    const r = readStateLog(pfs, LOG);
    expect(r).toMatchObject({ reading: "torn_tail_repaired", repair: { repaired: true, droppedBytes: 13 }, corruptionWarnings: [] });
    expect(r.records).toEqual([JSON.parse(A), JSON.parse(B)]);
    expect(fs.readFileSync(file, "utf8")).toBe(`${A}\n${B}\n`);
  });
  it("cuts a bad last line followed only by blank lines", () => {
    const { pfs, file } = logFile(`${A}\r\nnot json\r\n\r\n  \n`);
    const r = readStateLog(pfs, LOG);
    expect(r.reading).toBe("torn_tail_repaired");
    expect(fs.readFileSync(file, "utf8")).toBe(`${A}\r\n`);
    expect(r.repair.droppedBytes).toBe(Buffer.byteLength("not json\r\n\r\n  \n"));
  });
  it("keeps a complete record without a final newline, and trailing blanks", () => {
    expect(validPrefixBytes(`${A}\n${B}`)).toBe(Buffer.byteLength(`${A}\n${B}`));
    expect(validPrefixBytes(`${A}\n   `)).toBe(Buffer.byteLength(`${A}\n   `));
    expect(interpretStateLog(Buffer.from(`${A}\n${B}`))).toMatchObject({ reading: "intact", truncateTo: null });
  });
  it("does nothing to a missing or empty file", () => {
    const { pfs } = logFile("");
    expect(readStateLog(pfs, LOG)).toEqual({ records: [], corruptionWarnings: [], repair: { repaired: false, droppedBytes: 0 }, reading: "intact" });
    expect(readStateLog(pfs, "absent.jsonl")).toEqual({ records: [], corruptionWarnings: [], repair: { repaired: false, droppedBytes: 0 }, reading: "intact" });
  });
  it("counts bytes of the decoded text, like the reference (invalid UTF-8 is 3 bytes of U+FFFD)", () => {
    const { pfs, file } = logFile(Buffer.concat([Buffer.from('{"n":"'), Buffer.from([0xff]), Buffer.from('"}\n{"t')]));
    expect(readStateLog(pfs, LOG).repair).toEqual({ repaired: true, droppedBytes: 3 });
    // 9 valid bytes became 11 decoded ones: two bytes of the torn line stay.
    expect(fs.readFileSync(file).subarray(-2).toString()).toBe('{"');
  });
});

describe("a state log with bad lines followed by others is never cut", () => {
  it("keeps the file whole, reports every bad line and reads every valid line", () => {
    const content = `${A}\r\nnot json\r\n${B}\r\n{"torn\r\n${C}\r\n`;
    const { pfs, file } = logFile(content);
    const r = readStateLog(pfs, LOG);
    expect(fs.readFileSync(file, "utf8")).toBe(content);
    expect(r.reading).toBe("corrupt_lines_kept");
    expect(r.repair).toEqual({ repaired: false, droppedBytes: 0, reading: "corrupt_lines_kept" });
    expect(r.records).toEqual([JSON.parse(A), JSON.parse(B), JSON.parse(C)]);
    expect(r.corruptionWarnings).toEqual([
      { line: 2, length: 8, sha256: sha("not json"), error: parseError("not json") },
      { line: 4, length: 6, sha256: sha('{"torn'), error: parseError('{"torn') },
    ]);
  });
  it("two bad lines at the end are not a torn write either: nothing is cut", () => {
    const content = `${A}\n{"a\n{"b`;
    const { pfs, file } = logFile(content);
    const r = readStateLog(pfs, LOG);
    expect(r.reading).toBe("corrupt_lines_kept");
    expect(r.corruptionWarnings.map((w) => w.line)).toEqual([2, 3]);
    expect(fs.readFileSync(file, "utf8")).toBe(content);
  });
  it("the issue's log: one corrupt line at a quarter of 20,000 lines leaves all the others on disk and read", () => {
    const lines = Array.from({ length: 20_000 }, (_, i) => (i === 5_000 ? '{"type":"event","note":"cut' : JSON.stringify({ type: "event", event: "seat_dispatch", run: 3, i })));
    const content = `${lines.join("\n")}\n`;
    const { pfs, file } = logFile(content);
    const r = readStateLog(pfs, LOG);
    expect(r.reading).toBe("corrupt_lines_kept");
    expect(r.records).toHaveLength(19_999);
    expect(r.corruptionWarnings.map((w) => w.line)).toEqual([5_001]);
    expect(fs.statSync(file).size).toBe(Buffer.byteLength(content));
  });
});

describe("lines nested too deep", () => {
  it("are reported instead of parsed, and a valid one at the end is never cut", () => {
    const content = `${A}\n${DEEP}\n${B}\n${DEEP}\n`;
    const { pfs, file } = logFile(content);
    const r = readStateLog(pfs, LOG);
    expect(r.records).toEqual([JSON.parse(A), JSON.parse(B)]);
    expect(r.corruptionWarnings.map((w) => [w.line, w.error])).toEqual([
      [2, "nested more than 256 levels deep; not read"],
      [4, "nested more than 256 levels deep; not read"],
    ]);
    expect(r.reading).toBe("corrupt_lines_kept");
    expect(fs.readFileSync(file, "utf8")).toBe(content);
  });
  it("a torn deep last line is a torn tail like any other", () => {
    const torn = `{"nest":${"[".repeat(5000)}`;
    const { pfs, file } = logFile(`${A}\n${torn}`);
    const r = readStateLog(pfs, LOG);
    expect(r).toMatchObject({ reading: "torn_tail_repaired", repair: { repaired: true, droppedBytes: torn.length }, corruptionWarnings: [] });
    expect(fs.readFileSync(file, "utf8")).toBe(`${A}\n`);
  });
});

describe("parseJsonlDetailed", () => {
  it("parses trimmed non-blank lines and reports corrupt ones without their content", () => {
    const bad = '  {"type": oops}  ';
    const { records, corruptionWarnings } = parseJsonlDetailed(`${A}\n\n${bad}\r\n${B}`);
    expect(records).toEqual([JSON.parse(A), JSON.parse(B)]);
    expect(corruptionWarnings).toEqual([{ line: 3, length: bad.trim().length, sha256: sha(bad.trim()), error: parseError(bad.trim()) }]);
  });
  it("accepts any JSON value per line", () => {
    expect(parseJsonlDetailed("1\nnull\n[2]\n").records).toEqual([1, null, [2]]);
  });
});

describe("readStateLog", () => {
  it("readOnly leaves the file alone and reads what the repair would leave", () => {
    for (const content of [`${A}\n{"torn`, Buffer.concat([Buffer.from(`${A}\n{"n":"`), Buffer.alloc(4, 0xff), Buffer.from('"}\n{')]), `${A}\nbad\n${B}\n`, `${A}\n`]) {
      const { pfs, file } = logFile(content);
      const before = fs.readFileSync(file);
      const ro = readStateLog(pfs, LOG, { readOnly: true });
      expect(fs.readFileSync(file).equals(before)).toBe(true);
      const rw = readStateLog(pfs, LOG);
      expect(ro).toEqual(rw);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
  it("never reads or cuts a log that links out of the project, nor a hard-linked one", () => {
    const { pfs } = logFile("");
    outside = fs.mkdtempSync(path.join(os.tmpdir(), "wb-jsonl-out-"));
    const target = path.join(outside, "state.jsonl");
    fs.writeFileSync(target, `${A}\n{"torn`);
    fs.rmSync(path.join(dir, LOG));
    fs.symlinkSync(target, path.join(dir, LOG));
    expect(() => readStateLog(pfs, LOG)).toThrow(/outside the project/);
    fs.rmSync(path.join(dir, LOG));
    fs.linkSync(target, path.join(dir, LOG));
    expect(() => readStateLog(pfs, LOG)).toThrow(/hard link/);
    expect(fs.readFileSync(target, "utf8")).toBe(`${A}\n{"torn`);
  });
});
