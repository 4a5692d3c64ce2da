import { describe, expect, it } from "vitest";
import { z } from "zod";
import { parseJsonText, parseLenient, readJsonFile } from "../../../lib/core/lenient";
import { ProjectFs } from "../../../lib/core/project-fs";
import type { FileWarning } from "../../../lib/core/warnings";
import { workStateSchema } from "../../../lib/inventory/schemas";
import { ProjectBuilder, removeTempDirs } from "../../helpers/project-builder";
import { afterAll } from "vitest";

afterAll(removeTempDirs);

function collect(): { warn: (w: FileWarning) => void; warnings: FileWarning[] } {
  const warnings: FileWarning[] = [];
  return { warn: (w) => warnings.push(w), warnings };
}

describe("parseLenient", () => {
  it("drops one bad field, keeps the rest, and warns naming the file and the field", () => {
    const { warn, warnings } = collect();
    const out = parseLenient(workStateSchema, { title: "Export", status: 5, type: "implementation" }, ".claude/work/X/state.json", warn);
    expect(out).toMatchObject({ title: "Export", type: "implementation" });
    expect(out).not.toHaveProperty("status");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ relPath: ".claude/work/X/state.json", field: "status", code: "invalid_field" });
    expect(warnings[0]!.message).toContain(".claude/work/X/state.json");
    expect(warnings[0]!.message).toContain('"status"');
  });

  it("names a nested field with a dotted path (array index included)", () => {
    const { warn, warnings } = collect();
    const out = parseLenient(workStateSchema, { title: "T", updates: [{ note: "ok" }, { note: "x", auto: "yes" }], branches: { feature: 42, base: "main" } }, "s.json", warn);
    expect(out?.title).toBe("T");
    expect(out?.updates).toEqual([{ note: "ok" }, { note: "x" }]);
    expect(out?.branches).toEqual({ base: "main" });
    expect(warnings.map((w) => w.field).sort()).toEqual(["branches.feature", "updates.1.auto"]);
  });

  it("a bad required field inside an array item drops that item only, with one warning, and keeps the file", () => {
    const { warn, warnings } = collect();
    const out = parseLenient(workStateSchema, { title: "Kept", updates: [{ note: 5 }, { note: "fine" }] }, "s.json", warn);
    // The file must not be lost over one bad update entry.
    expect(out?.title).toBe("Kept");
    expect(warnings.length).toBeGreaterThanOrEqual(1);
    expect(warnings.length).toBeLessThanOrEqual(2);
    expect(warnings[0]).toMatchObject({ relPath: "s.json", field: "updates.0.note", code: "invalid_field" });
  });

  it("a wrong root shape is rejected with one warning and no value", () => {
    const { warn, warnings } = collect();
    expect(parseLenient(workStateSchema, [1, 2], "s.json", warn)).toBeNull();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ relPath: "s.json", code: "invalid_field" });
    expect(warnings[0]!.field).toBeUndefined();
  });

  it("does not mutate its input", () => {
    const input = { title: "T", status: 5 };
    parseLenient(workStateSchema, input, "s.json", () => undefined);
    expect(input).toEqual({ title: "T", status: 5 });
  });

  it("keeps unknown keys of loose schemas", () => {
    const out = parseLenient(z.object({ a: z.string().optional() }).loose(), { a: "x", extra: 1 }, "f", () => undefined);
    expect(out).toEqual({ a: "x", extra: 1 });
  });
});

describe("parseJsonText", () => {
  it("parses valid JSON and tolerates a UTF-8 BOM", () => {
    const { warn, warnings } = collect();
    expect(parseJsonText('\uFEFF{"a": 1}', "f.json", warn)).toEqual({ a: 1 });
    expect(warnings).toEqual([]);
  });

  it("reports corrupt JSON with the file, line and column", () => {
    const { warn, warnings } = collect();
    const text = '{\n  "a": 1\n  "b": 2\n}';
    expect(parseJsonText(text, "dir/state.json", warn)).toBeUndefined();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ relPath: "dir/state.json", code: "corrupt_json" });
    expect(warnings[0]!.message).toContain("dir/state.json");
    expect(warnings[0]!.message).toContain("line 3, column 3");
  });

  it("reports the position of an unexpected token (a stray character) as line and column", () => {
    const { warn, warnings } = collect();
    // Node 20 reports this kind of error without "at position N" in its message.
    parseJsonText('{\n  "title": "x",\n  "status": oops\n}', "s.json", warn);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.message).toMatch(/line 3, column 13/);
  });

  it("gives the same line and column for a file with a BOM as without", () => {
    const text = '{\n  "a": 1\n  "b": 2\n}';
    const plain = collect();
    const bom = collect();
    parseJsonText(text, "f.json", plain.warn);
    parseJsonText("\uFEFF" + text, "f.json", bom.warn);
    expect(bom.warnings[0]!.message).toBe(plain.warnings[0]!.message);
  });

  it("uses the code it is given (corrupt_manifest for manifests)", () => {
    const { warn, warnings } = collect();
    parseJsonText("{", "m.json", warn, "corrupt_manifest");
    expect(warnings[0]!.code).toBe("corrupt_manifest");
  });
});

describe("readJsonFile", () => {
  it("reads, parses and validates a file; null and no warning when it is missing", async () => {
    const b = new ProjectBuilder().json("a.json", { title: "T", status: 1 }, { bom: true }).file("big.json", `{"a":"${"x".repeat(3 * 1024 * 1024)}"}`);
    const pfs = await ProjectFs.open(b.root);
    const { warn, warnings } = collect();
    expect(await readJsonFile(pfs, "a.json", workStateSchema, warn)).toEqual({ title: "T" });
    expect(warnings.map((w) => w.field)).toEqual(["status"]);
    expect(await readJsonFile(pfs, "missing.json", workStateSchema, warn)).toBeNull();
    expect(warnings).toHaveLength(1);
    expect(await readJsonFile(pfs, "big.json", workStateSchema, warn)).toBeNull();
    expect(warnings[1]).toMatchObject({ relPath: "big.json", code: "too_large" });
  });
});
