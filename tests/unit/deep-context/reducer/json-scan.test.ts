/**
 * The seat-file byte scanner against JSON.parse: for any input, the scanner must accept
 * exactly what JSON.parse accepts (after UTF-8 decoding) with a findings array, and the
 * captured fields must hold exactly JSON.parse's values.
 */
import { describe, expect, it } from "vitest";
import { FIELD_NAMES, FindingSpans, ScanOutcome, T_ARRAY, T_OBJECT, numberValue, scanSeatFile, skipValue, spanValue } from "../../../../lib/deep-context/reducer/json-scan";
import { mulberry32 } from "../../../helpers/prng";

type Captured = { type: number; fields: Record<string, unknown> };

function scan(input: Buffer): { outcome: ScanOutcome; elements: Captured[] } {
  const spans = new FindingSpans();
  const elements: Captured[] = [];
  const outcome = scanSeatFile(input, input.length, spans, (sp) => {
    const fields: Record<string, unknown> = {};
    if (sp.elementType === T_OBJECT) FIELD_NAMES.forEach((name, f) => sp.type[f] && (fields[name] = spanValue(sp, f)));
    elements.push({ type: sp.elementType, fields });
  });
  return { outcome, elements };
}

/** What the reference does with the same bytes. */
function reference(input: Buffer): unknown[] | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(input.toString("utf8"));
  } catch {
    return null;
  }
  if (Array.isArray(parsed)) return parsed;
  const findings = parsed && (parsed as { findings?: unknown }).findings;
  return Array.isArray(findings) ? findings : null;
}

const seen = { ok: 0, failed: 0, restart: 0 };

function expectAgrees(input: Buffer): void {
  const ref = reference(input);
  const { outcome, elements } = scan(input);
  seen[outcome === ScanOutcome.OK ? "ok" : outcome === ScanOutcome.FAILED ? "failed" : "restart"]++;
  if (outcome === ScanOutcome.RESTART) {
    // Allowed only when something went out before the file turned out unusable as read.
    expect(elements.length).toBeGreaterThan(0);
    return;
  }
  if (ref === null) {
    expect(outcome).toBe(ScanOutcome.FAILED);
    expect(elements).toEqual([]);
    return;
  }
  expect(outcome).toBe(ScanOutcome.OK);
  expect(elements.length).toBe(ref.length);
  ref.forEach((raw, i) => {
    const el = elements[i]!;
    if (raw && typeof raw === "object" && !Array.isArray(raw)) {
      expect(el.type).toBe(T_OBJECT);
      for (const name of FIELD_NAMES) {
        const has = Object.prototype.hasOwnProperty.call(raw, name);
        expect(name in el.fields).toBe(has);
        if (has) expect(el.fields[name]).toEqual((raw as Record<string, unknown>)[name]);
      }
    } else {
      expect(el.type === T_ARRAY).toBe(Array.isArray(raw));
    }
  });
}

const b = (s: string) => Buffer.from(s, "utf8");

describe("scanSeatFile", () => {
  it("reads both seat shapes and captures the nine fields", () => {
    const f = { path: "src/a.ts", symbol: "a b", kind: "gap", signature: "f()", reuse: "wrap", evidence: "src/a.ts:1", notes: "n", relevance: 0.75, unit_id: "u", extra: [1, { x: "y" }] };
    for (const doc of [[f], { before: 1, findings: [f], after: null }]) {
      const { outcome, elements } = scan(b(JSON.stringify(doc, null, 2)));
      expect(outcome).toBe(ScanOutcome.OK);
      const { extra: _extra, ...fields } = f;
      expect(elements).toEqual([{ type: T_OBJECT, fields }]);
    }
  });

  it.each([
    ["empty file", ""],
    ["blank", " \n"],
    ["scalar", '"text"'],
    ["null", "null"],
    ["no findings member", '{"text":"raw output"}'],
    ["findings not an array", '{"findings":{}}'],
    ["torn", '[{"path":"a"'],
    ["trailing garbage after the document", '[{"path":"a"}] x'],
    ["trailing comma", '[{"path":"a",}]'],
    ["leading zero", '[{"relevance":01}]'],
    ["bad escape", '[{"path":"\\x"}]'],
    ["short unicode escape", '[{"path":"\\u12"}]'],
    ["raw tab in a string", '[{"path":"a\tb"}]'],
    ["BOM", "\ufeff[]"],
    ["single quotes", "[{'path':'a'}]"],
    ["bare word", "[{path:1}]"],
    ["lone minus", '[{"relevance":-}]'],
    ["dangling exponent", '[{"relevance":1e}]'],
    ["dot without digits", '[{"relevance":1.}]'],
    ["unclosed nested", '[{"x":[1,2}]'],
    ["missing colon", '[{"x" 1}]'],
    ["truncated literal", '[{"x":tru}]'],
  ])("fails, as JSON.parse does: %s", (_name, text) => {
    expectAgrees(b(text));
    expect(scan(b(text)).outcome).not.toBe(ScanOutcome.OK);
  });

  it("asks for a restart when findings already went out and the file turns out unusable", () => {
    expect(scan(b('[{"path":"a"}]]')).outcome).toBe(ScanOutcome.RESTART);
    expect(scan(b('{"findings":[{"path":"a"}],"findings":[]}')).outcome).toBe(ScanOutcome.RESTART);
    expect(scan(b('{"findings":[{"path":"a"}],"x":tru}')).outcome).toBe(ScanOutcome.RESTART);
    // Nothing went out yet: a plain failure, or fine.
    expect(scan(b('{"findings":[],"findings":[{"path":"a"}]}')).outcome).toBe(ScanOutcome.OK);
    expect(scan(b('{"findings":"x","findings":[{"path":"a"}]}')).outcome).toBe(ScanOutcome.OK);
  });

  it("decodes escaped keys and values, non-ASCII and invalid UTF-8 as JSON.parse of the decoded text does", () => {
    for (const input of [
      b('[{"p\\u0061th":"\\u00e9\\n\\"q\\"","symbol":"日本 😀","notes":"\\ud800"}]'),
      Buffer.concat([b('[{"path":"a'), Buffer.from([0xff, 0xc3, 0x28, 0xe2, 0x82]), b('","symbol":"s"}]')]),
      b('[{"path":"a","path":"b","relevance":0.1,"relevance":"0.9"}]'),
      b('[1,"s",null,true,false,[],[{"path":"x"}],{}]'),
      b('{"findings":[{"kind":["gap"],"relevance":[0.5],"path":{"a":[1,{"b":null}]},"symbol":12.5e-3}]}'),
    ]) {
      expectAgrees(input);
    }
  });

  it("tells the captured keys from keys that share their first bytes, wherever they end", () => {
    const near = [
      "paths",
      "pat",
      "pathx",
      "symbols",
      "symbo",
      "kinds",
      "signaturX",
      "signatures",
      "signXture",
      "reuses",
      "evidenceX",
      "evidencE",
      "note",
      "relevancf",
      "relevancee",
      "relXvance",
      "unit_i",
      "unit_idx",
      "Path",
    ];
    for (const key of near) {
      const doc = `[{${JSON.stringify(key)}: "v", "path": "p", "relevance": 0.5}]`;
      expectAgrees(b(doc));
      const { elements } = scan(b(doc));
      expect(elements[0]!.fields).toEqual({ path: "p", relevance: 0.5 });
    }
    // A known key cut off by the end of the buffer, with and without its quote.
    for (let cut = 1; cut < 40; cut++) expectAgrees(b('[{"signature": "s", "relevance": 1}]'.slice(0, cut)));
    // Key/value separators and indentation other than a pretty-printer's.
    for (const sep of [":", " :", ":  ", ":\t", ": \n ", "\r\n:\r\n"]) expectAgrees(b(`[{"path"${sep}"p","kind"${sep}"gap"}]`));
    for (const indent of ["    ", "\t", " \t  ", "        x", "\n\n      ", "      \r"]) expectAgrees(b(`[{${indent}"path": "p",${indent}"symbol": "s"${indent}}${indent}]`));
  });

  it("agrees with JSON.parse on 3,000 random documents and mutations of them", () => {
    const rand = mulberry32(7);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
    const strings = ["", " ", "a", "a  b", " lead", "trail ", "tab\t", "é", "日本", "😀", '"q"', "back\\slash", "\u0000", "\u2028", "gap", "reuse_candidate"];
    const scalar = (): unknown => pick([() => pick(strings), () => Math.round((rand() - 0.3) * 1e6) / 1e3, () => rand() * 1e-7, () => pick([true, false, null]), () => 1e300 * 10 ** Math.floor(rand() * 3)])();
    const value = (depth: number): unknown =>
      depth > 2 || rand() < 0.6
        ? scalar()
        : rand() < 0.5
          ? Array.from({ length: Math.floor(rand() * 3) }, () => value(depth + 1))
          : Object.fromEntries(Array.from({ length: Math.floor(rand() * 3) }, () => [pick(["k", "path", "x"]), value(depth + 1)]));
    const finding = () => {
      const o: Record<string, unknown> = {};
      for (const name of [...FIELD_NAMES, "other", "findings"]) if (rand() < 0.5) o[name] = rand() < 0.8 ? scalar() : value(1);
      return rand() < 0.9 ? o : value(0);
    };
    const mutations = [
      (s: string) => s,
      (s: string) => s.slice(0, Math.floor(rand() * s.length)),
      (s: string) => {
        const i = Math.floor(rand() * s.length);
        return s.slice(0, i) + pick([",", "]", "}", '"', "\\", ":", " ", "x", "\t", "0", "-", "e"]) + s.slice(i);
      },
      (s: string) => {
        const i = Math.floor(rand() * s.length);
        return s.slice(0, i) + s.slice(i + 1);
      },
      (s: string) => {
        const i = Math.floor(rand() * s.length);
        return s.slice(0, i) + pick(["x", " ", "\t", '"', ":", "\u0000"]) + s.slice(i + 1);
      },
    ];
    for (let n = 0; n < 3000; n++) {
      const findings = Array.from({ length: Math.floor(rand() * 4) }, finding);
      const doc = rand() < 0.5 ? findings : { meta: value(1), findings, ...(rand() < 0.1 ? { tail: value(1) } : {}) };
      const text = JSON.stringify(doc, null, pick([undefined, 2, 4, 6, "\t"]));
      expectAgrees(b(pick(mutations)(text)));
    }
    // The mix exercises every outcome.
    expect(seen.ok).toBeGreaterThan(500);
    expect(seen.failed).toBeGreaterThan(500);
    expect(seen.restart).toBeGreaterThan(10);
  });
});

describe("numberValue", () => {
  it("equals Number() for every JSON number form", () => {
    const rand = mulberry32(3);
    const cases = ["0", "-0", "1", "0.5", "0.734", "10.50", "0.000123", "123456789012345", "1234567890123456789", "0.1000000000000000055511151231257827", "5E-1", "1e400", "-1.5E+3", "0.12345678901234568"];
    for (let i = 0; i < 5000; i++) cases.push(((rand() - 0.5) * 10 ** Math.floor(rand() * 8)).toFixed(Math.floor(rand() * 17)));
    for (const c of cases) {
      const buf = b(c);
      expect(Object.is(numberValue(buf, 0, buf.length), Number(c))).toBe(true);
    }
  });
});

describe("skipValue", () => {
  it("handles nesting deeper than any stack", () => {
    const deep = "[".repeat(100_000) + "]".repeat(100_000);
    expect(skipValue(b(deep), 0, deep.length)).toBe(deep.length);
    expect(skipValue(b(deep.slice(0, -1)), 0, deep.length - 1)).toBe(-1);
  });
});
