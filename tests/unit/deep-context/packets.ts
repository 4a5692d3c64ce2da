/**
 * Deep-context test packets: each case writes a spec folder (with its `context/` packet)
 * under a root folder. The same builders produced the reference reducer's outputs in
 * tests/fixtures/deep-context/oracle/<case>/ (see the README there), so a test builds the
 * case in a temp folder, reduces it and compares bytes.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { mulberry32 } from "../../helpers/prng";

export const FIXTURE_DIR = path.resolve(import.meta.dirname, "../../fixtures/deep-context");
export const ORACLE_DIR = path.join(FIXTURE_DIR, "oracle");

export interface PacketCase {
  /** Spec folder, relative to the root. */
  spec: string;
  /** Oracle case whose outputs this one must reproduce (default: its own name). */
  expect?: string;
  /** Reduce with `layouts: "reference"` (what the reference reads). */
  referenceLayoutOnly?: boolean;
  build(root: string): void;
}

function write(file: string, content: string | Buffer): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
}

const json = (v: unknown) => JSON.stringify(v, null, 2) + "\n";
const jsonl = (records: unknown[]) => records.map((r) => JSON.stringify(r)).join("\n") + "\n";
const ctx = (root: string, spec: string, ...rel: string[]) => path.join(root, spec, "context", ...rel);

function copyDir(src: string, dst: string): void {
  fs.cpSync(src, dst, { recursive: true });
  // The shared fixtures are read-only; the reducer truncates and writes in the packet.
  const chmod = (p: string) => {
    fs.chmodSync(p, fs.statSync(p).isDirectory() ? 0o755 : 0o644);
    if (fs.statSync(p).isDirectory()) for (const e of fs.readdirSync(p)) chmod(path.join(p, e));
  };
  chmod(dst);
}

const BASE_CONFIG = {
  scope: "Payments webhook   retries\tand idempotency",
  specFolder: "specs/payments",
  loopType: "context",
  maxIterations: 4,
  relevanceGate: 0.55,
  agreementMin: 2,
  createdAt: "2026-03-01T10:00:00Z",
  status: "running",
  lineage: { sessionId: "ctx-test-1", lineageMode: "new", generation: 1 },
};

const iteration = (run: unknown, extra: Record<string, unknown> = {}) => ({
  type: "iteration",
  run,
  mode: "context",
  status: "evidence",
  focus: `Slice ${String(run)}`,
  findingsCount: 10 * Number(run),
  newAgreementEligible: run,
  agreementEligible: 2 * Number(run),
  sliceCoverage: Number(run) / 4,
  agreementRate: 0.333,
  ...extra,
});

const F = (p: string, symbol: string, extra: Record<string, unknown> = {}) => ({ path: p, symbol, kind: "reuse_candidate", relevance: 0.8, ...extra });

/** sha256 of `path:symbol:kind`, the derived unit_id. */
export const derivedId = (p: string, s: string, k: string) => crypto.createHash("sha256").update(`${p}:${s}:${k}`).digest("hex");

/** The seat files of the layout cases, by iteration and label. */
const LAYOUT_SEATS: Record<string, Record<string, unknown>> = {
  "iter-001": {
    x: [F("src/a.ts", "alpha", { signature: "alpha()", reuse: "extend" }), F("src/b.ts", "beta", { kind: "convention" })],
    "x-y": { findings: [F("src/a.ts", "alpha", { signature: "alpha(opts)", reuse: "wrap" }), F("src/c.ts", "gamma", { relevance: 0.4 })] },
    x10: [F("src/b.ts", "beta", { kind: "convention", relevance: 0.9 })],
    x9: [F("src/a.ts", "alpha", { relevance: 0.95 })],
  },
  "iter-002": {
    x: [F("src/d.ts", "delta", { kind: "gap" }), F("src/a.ts", "alpha", { signature: "alpha()" })],
    x9: { findings: [F("src/d.ts", "delta", { kind: "gap", relevance: 0.6 })] },
  },
};
const LAYOUT_RAW = '{"stdout":"model said things","exitCode":0}\n';

function layoutLog(root: string, spec: string): void {
  write(ctx(root, spec, "deep-context-config.json"), json(BASE_CONFIG));
  write(ctx(root, spec, "deep-context-state.jsonl"), jsonl([{ type: "config", scope: "layouts" }, iteration(1), iteration(2)]));
}

export const CASES: Record<string, PacketCase> = {
  "real-sqlite-to-turso": {
    spec: ".opencode/specs/z_future/sqlite-to-turso",
    build(root) {
      copyDir(path.join(FIXTURE_DIR, "sqlite-to-turso", "context"), ctx(root, this.spec));
    },
  },

  "no-context-folder": {
    spec: "specs/empty",
    build(root) {
      fs.mkdirSync(path.join(root, this.spec), { recursive: true });
    },
  },

  "empty-packet": {
    spec: "specs/empty",
    build(root) {
      write(ctx(root, this.spec, "deep-context-state.jsonl"), "");
      fs.mkdirSync(ctx(root, this.spec, "seats"), { recursive: true });
    },
  },

  "all-seats-failed": {
    spec: "specs/failed",
    build(root) {
      write(ctx(root, this.spec, "deep-context-config.json"), json({ ...BASE_CONFIG, status: "initialized", lineage: undefined }));
      write(ctx(root, this.spec, "deep-context-state.jsonl"), jsonl([{ type: "config" }]));
      const it1 = (f: string) => ctx(root, this.spec, "seats", "iter-001", f);
      write(it1("a.json"), '{"findings": [{"path": "src/a.ts", "symbol": "a"}');
      write(it1("b.raw.json"), LAYOUT_RAW);
      write(it1("c.json"), '"just a string"');
      write(it1("d.json"), '{"findings": "not an array"}');
      write(it1("e.json"), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('[{"path":"src/e.ts","symbol":"e"}]')]));
      write(it1("notes.txt"), "not a seat");
      const it2 = (f: string) => ctx(root, this.spec, "seats", "iter-002", f);
      write(it2("f.json"), "");
      write(it2("g.json"), "null");
      write(it2("i.json"), '[{"path":"src/i.ts","symbol":"i"}] trailing');
      write(it2("j.json"), '[{"path":"src/j.ts","symbol":"j",}]');
      fs.mkdirSync(it2("h.json"), { recursive: true });
    },
  },

  "torn-tail": {
    spec: "specs/torn",
    build(root) {
      write(ctx(root, this.spec, "deep-context-config.json"), json(BASE_CONFIG));
      const good = jsonl([{ type: "config" }, iteration(1), { type: "event", event: "graph_convergence", decision: "CONTINUE", signals: { sliceCoverage: 0.5 }, blockers: [] }, iteration(2)]);
      write(ctx(root, this.spec, "deep-context-state.jsonl"), good + '{"type":"iteration","run":3,"mode":"con');
      write(ctx(root, this.spec, "seats", "iter-001", "native-a.json"), json([F("src/a.ts", "a")]));
    },
  },

  "corrupt-middle": {
    spec: "specs/corrupt",
    build(root) {
      write(ctx(root, this.spec, "deep-context-config.json"), json(BASE_CONFIG));
      const lines = [JSON.stringify({ type: "config" }), JSON.stringify(iteration(1)), "", "{not json at all", JSON.stringify(iteration(2)), JSON.stringify({ type: "event", event: "synthesis_complete" })];
      write(ctx(root, this.spec, "deep-context-state.jsonl"), lines.join("\r\n") + "\r\n");
      write(ctx(root, this.spec, "seats", "iter-001", "native-a.json"), json([F("src/a.ts", "a")]));
    },
  },

  "trailing-record-no-newline": {
    spec: "specs/trailing",
    build(root) {
      write(ctx(root, this.spec, "deep-context-state.jsonl"), jsonl([iteration(1)]) + "   \n" + JSON.stringify(iteration(2)));
    },
  },

  "invalid-utf8-log": {
    spec: "specs/utf8",
    build(root) {
      // Invalid UTF-8 inside a valid line, then a torn tail: the reference measures the kept
      // prefix on the decoded text (U+FFFD is 3 bytes), so the truncated file keeps 2 bytes
      // of the torn line, which then parse as a corrupt line.
      const good = Buffer.from(jsonl([{ type: "config" }, { ...iteration(1), focus: "caf\u00e9 \u2014 r\u00e9sum\u00e9" }]));
      const bad = Buffer.concat([Buffer.from('{"type":"event","note":"'), Buffer.from([0xff]), Buffer.from('"}\n')]);
      write(ctx(root, this.spec, "deep-context-state.jsonl"), Buffer.concat([good, bad, Buffer.from('{"type":"iteration","run":2,"fo')]));
    },
  },

  "invalid-utf8-log-extends": {
    spec: "specs/utf8",
    build(root) {
      // More expansion than torn bytes: truncate(2) past the end of the file zero-fills it.
      const bad = Buffer.concat([Buffer.from('{"type":"event","note":"'), Buffer.alloc(8, 0xff), Buffer.from('"}\n')]);
      write(ctx(root, this.spec, "deep-context-state.jsonl"), Buffer.concat([Buffer.from(jsonl([iteration(1)])), bad, Buffer.from('{"t')]));
    },
  },

  validation: {
    spec: "specs/validation",
    build(root) {
      write(ctx(root, this.spec, "deep-context-config.json"), json(BASE_CONFIG));
      write(ctx(root, this.spec, "deep-context-state.jsonl"), jsonl([iteration(1)]));
      const seat = (label: string, body: unknown) => write(ctx(root, this.spec, "seats", "iter-001", `${label}.json`), json(body));
      seat("kinds", [
        F("src/k.ts", "pattern", { kind: "pattern" }),
        F("src/k.ts", "Gap", { kind: "Gap" }),
        F("src/k.ts", "spaced", { kind: "  gap " }),
        F("src/k.ts", "arrayKind", { kind: ["gap"] }),
        F("src/k.ts", "numberKind", { kind: 42 }),
        F("src/k.ts", "nullKind", { kind: null }),
        F("src/k.ts", "emptyKind", { kind: "" }),
        F("src/k.ts", "multi", { kind: "integration\n point" }),
        F("src/k.ts", "objKind", { kind: { a: 1 } }),
        { path: "src/k.ts", symbol: "noKind", relevance: 0.7 },
      ]);
      seat("paths", [
        { symbol: "", path: "", kind: "gap" },
        { symbol: "   ", path: "\t\n", kind: "gap" },
        { symbol: null, kind: "gap" },
        { kind: "gap", relevance: "high" },
        { path: "src/only-path.ts", kind: "dependency", relevance: 0.9 },
        { symbol: "onlySymbol", kind: "dependency", relevance: 0.9 },
        { path: 12, symbol: true, kind: "dependency", relevance: 0.9 },
        { path: ["a", "b"], symbol: { x: 1 }, kind: "dependency", relevance: 0.9 },
      ]);
      seat("relevance", [
        F("src/r.ts", "high", { relevance: "high" }),
        F("src/r.ts", "obj", { relevance: {} }),
        F("src/r.ts", "pair", { relevance: [1, 2] }),
        F("src/r.ts", "infinity", { relevance: "Infinity" }),
        F("src/r.ts", "empty", { relevance: "" }),
        F("src/r.ts", "true", { relevance: true }),
        F("src/r.ts", "false", { relevance: false }),
        F("src/r.ts", "null", { relevance: null }),
        F("src/r.ts", "missing", { relevance: undefined }),
        F("src/r.ts", "string", { relevance: "0.9" }),
        F("src/r.ts", "padded", { relevance: " 0.8\n" }),
        F("src/r.ts", "single", { relevance: [0.75] }),
        F("src/r.ts", "hex", { relevance: "0x1" }),
        F("src/r.ts", "gate", { relevance: 0.55 }),
        F("src/r.ts", "below", { relevance: 0.5499999 }),
        F("src/r.ts", "round-up", { relevance: 0.5555 }),
        F("src/r.ts", "round-half", { relevance: 0.0005 }),
        F("src/r.ts", "negative", { relevance: -0.25 }),
        F("src/r.ts", "big", { relevance: 12.3456 }),
        F("src/r.ts", "many-digits", { relevance: 0.12345678901234568 }),
        F("src/r.ts", "exp", { relevance: 6.5e-1 }),
      ]);
      seat("shapes", [1, "string", null, true, false, 0, [], [{ path: "x" }], {}]);
      write(
        ctx(root, this.spec, "seats", "iter-001", "bignum.json"),
        '[{"path":"src/n.ts","symbol":"huge","relevance":1e999},{"path":"src/n.ts","symbol":"neg0","relevance":-0},{"path":"src/n.ts","symbol":"e","relevance":1E-1},{"path":"src/n.ts","symbol":"long","relevance":0.70000000000000000001}]',
      );
    },
  },

  "unit-ids": {
    spec: "specs/ids",
    build(root) {
      write(ctx(root, this.spec, "deep-context-state.jsonl"), jsonl([iteration(1), iteration(2)]));
      const seat = (it: string, label: string, body: unknown) => write(ctx(root, this.spec, "seats", it, `${label}.json`), json(body));
      seat("iter-001", "a", [
        F("src/x.ts", "one", { unit_id: " custom-1 ", signature: "one()" }),
        F("src/y.ts", "other-path-same-id", { unit_id: "custom-1", signature: "one(x)", kind: "gap" }),
        F("src/z.ts", "blank-id", { unit_id: "   " }),
        F("src/z.ts", "numeric-id", { unit_id: 42 }),
        F("src/w.ts", "derived"),
      ]);
      seat("iter-001", "b", [
        // Explicit id equal to the derived id of src/w.ts:derived:reuse_candidate: same unit.
        F("src/elsewhere.ts", "claims-derived", { unit_id: derivedId("src/w.ts", "derived", "reuse_candidate"), relevance: 0.95 }),
        F("src/z.ts", "blank-id", { relevance: 0.2 }),
      ]);
      seat("iter-002", "c", [F("src/new.ts", "later", { unit_id: derivedId("src/later.ts", "later", "gap") }), F("src/later.ts", "later", { kind: "gap" }), F("src/x.ts", "one", { unit_id: "custom-1" })]);
    },
  },

  whitespace: {
    spec: "specs/whitespace",
    build(root) {
      write(ctx(root, this.spec, "deep-context-config.json"), json({ ...BASE_CONFIG, scope: "  \n " }));
      write(ctx(root, this.spec, "deep-context-state.jsonl"), jsonl([iteration(1, { focus: "  Slice\tone \n " })]));
      const seat = (label: string, body: unknown) => write(ctx(root, this.spec, "seats", "iter-001", `${label}.json`), json(body));
      seat("a", [
        F("src/a.ts", "fn  name", { signature: "fn(a,  b)", evidence: " src/a.ts:1 ", notes: "line one\nline two" }),
        F(" src/a.ts", "tabbed\tsym", { signature: "\tsig\t" }),
        F("src/nbsp.ts", "a\u00a0b", { notes: "x\u2028y\u3000z" }),
        F("src/bom.ts", "\ufeffbom"),
        F("src/a.ts", "multi\r\nline", { kind: "convention" }),
      ]);
      seat("b", [
        F("src/a.ts ", "fn name", { signature: "fn(a, b)", reuse: " extend " }),
        F("src/a.ts", "tabbed sym", { signature: "sig" }),
        F("src/nbsp.ts", "a b"),
        F("src/bom.ts", "bom"),
        F("src/a.ts", "multi line", { kind: "  convention\t" }),
      ]);
    },
  },

  "seat-shapes": {
    spec: "specs/shapes",
    build(root) {
      write(ctx(root, this.spec, "deep-context-state.jsonl"), jsonl([iteration(1)]));
      const raw = (label: string, text: string) => write(ctx(root, this.spec, "seats", "iter-001", `${label}.json`), text);
      raw("array", json([F("src/s.ts", "arr")]));
      raw("object", json({ meta: { model: "m", nested: [[[{ deep: [1, 2, { x: null }] }]]] }, findings: [F("src/s.ts", "arr", { signature: "arr()" })], after: "ok" }));
      raw("escaped-keys", '{"findings":[{"p\\u0061th":"src/s.ts","symbol":"arr","\\u006bind":"reuse_candidate","relevance":0.9,"notes":"escaped \\"keys\\" \\\\ \\/ \\b\\f\\n\\r\\t \\u00e9"}]}');
      raw("dup-keys", '[{"path":"src/wrong.ts","symbol":"dup","path":"src/s.ts","relevance":0.1,"relevance":0.7}]');
      raw("empty-array", "[]");
      raw("empty-findings", '{"findings":[]}');
      raw("numbers", '[{"path":"src/num.ts","symbol":"n","relevance":5E-1,"extra":[-0,1e2,0.5e1,12345678901234567890,-1.5E+3]}]');
      raw("ws", ' \n\t[ {"path" : "src/ws.ts" ,\r\n "symbol":"w" , "relevance" : 0.6 } ] \n');
      raw("bad-escape", '[{"path":"src/b.ts","symbol":"\\x"}]');
      raw("bad-number", '[{"path":"src/b.ts","symbol":"n","relevance":01}]');
      raw("control-char", '[{"path":"src/b.ts","symbol":"a\tb"}]');
    },
  },

  // A second `findings` member, or garbage after findings that were already read, makes the
  // byte scanner hand the packet to the JSON.parse decoder.
  "scanner-restart": {
    spec: "specs/restart",
    build(root) {
      write(ctx(root, this.spec, "deep-context-state.jsonl"), jsonl([iteration(1)]));
      const raw = (label: string, text: string) => write(ctx(root, this.spec, "seats", "iter-001", `${label}.json`), text);
      raw("a", json([F("src/a.ts", "a")]));
      raw("dup-findings", '{"findings":[{"path":"src/first.ts","symbol":"first"}],"findings":[{"path":"src/second.ts","symbol":"second","relevance":0.9}]}');
      raw("dup-findings-last-bad", '{"findings":[{"path":"src/gone.ts","symbol":"gone"}],"findings":"no"}');
      raw("late-garbage", '[{"path":"src/late.ts","symbol":"late"}]]');
      raw("z", json([F("src/a.ts", "a", { relevance: 0.3 })]));
    },
  },

  "layouts-canonical": {
    spec: "specs/layouts",
    build(root) {
      layoutLog(root, this.spec);
      for (const [it, seats] of Object.entries(LAYOUT_SEATS)) {
        for (const [label, body] of Object.entries(seats)) write(ctx(root, this.spec, "seats", it, `${label}.json`), json(body));
      }
      write(ctx(root, this.spec, "seats", "iter-002", "x10.raw.json"), LAYOUT_RAW);
    },
  },

  "layouts-label-first": {
    spec: "specs/layouts",
    expect: "layouts-canonical",
    build(root) {
      layoutLog(root, this.spec);
      for (const [it, seats] of Object.entries(LAYOUT_SEATS)) {
        for (const [label, body] of Object.entries(seats)) write(ctx(root, this.spec, "seats", label, it, `${label}.json`), json(body));
      }
      write(ctx(root, this.spec, "seats", "x10", "iter-002", "output.raw.json"), LAYOUT_RAW);
    },
  },

  "layouts-label-first-reference": {
    spec: "specs/layouts",
    expect: "layouts-label-first-reference",
    referenceLayoutOnly: true,
    build(root) {
      CASES["layouts-label-first"]!.build(root);
    },
  },

  "layouts-mixed": {
    spec: "specs/layouts",
    expect: "layouts-canonical",
    build(root) {
      layoutLog(root, this.spec);
      for (const [it, seats] of Object.entries(LAYOUT_SEATS)) {
        for (const [label, body] of Object.entries(seats)) {
          const file = label.startsWith("x1") || label === "x" ? ctx(root, this.spec, "seats", it, `${label}.json`) : ctx(root, this.spec, "seats", label, it, `${label}.json`);
          write(file, json(body));
        }
      }
      write(ctx(root, this.spec, "seats", "iter-002", "x10.raw.json"), LAYOUT_RAW);
    },
  },

  contradictions: {
    spec: "specs/contradictions",
    build(root) {
      write(ctx(root, this.spec, "deep-context-config.json"), json({ ...BASE_CONFIG, agreementMin: 3, relevanceGate: 0.7 }));
      write(ctx(root, this.spec, "deep-context-state.jsonl"), jsonl([iteration(1), iteration(2)]));
      const seat = (it: string, label: string, body: unknown) => write(ctx(root, this.spec, "seats", it, `${label}.json`), json(body));
      const u = (extra: Record<string, unknown>) => F("src/pay.ts", "charge", { relevance: 0.9, ...extra });
      seat("iter-001", "b", [u({ signature: "charge(amount)", reuse: "extend" }), F("src/same.ts", "same", { signature: "same( a )" })]);
      seat("iter-001", "a", [u({ signature: "charge(amount, currency)", reuse: "" }), F("src/same.ts", "same", { signature: "same(  a  )" })]);
      seat("iter-001", "10", [u({ signature: "charge(amount)", reuse: "wrap" })]);
      seat("iter-001", "2", [u({ signature: "", reuse: "compose" })]);
      seat("iter-001", "__proto__", [u({ signature: "proto(sig)", reuse: "import" })]);
      seat("iter-001", "constructor", [u({ signature: "ctor(sig)" })]);
      seat("iter-002", "a", [u({ signature: "charge(amount)", reuse: "extend" }), F("src/solo.ts", "solo", { signature: "x" }), F("src/solo.ts", "solo", { signature: "y" })]);
      seat("iter-002", "c d", [u({ signature: "charge(amount)" })]);
      seat("iter-002", " ", [F("src/anon.ts", "anon", { signature: "anon()" })]);
      seat("iter-002", "unknown", [F("src/anon.ts", "anon", { signature: "anon(x)" })]);
    },
  },

  "lineage-status": {
    spec: "specs/lineage",
    build(root) {
      write(ctx(root, this.spec, "deep-context-config.json"), json({ ...BASE_CONFIG, status: "paused" }));
      write(
        ctx(root, this.spec, "deep-context-state.jsonl"),
        jsonl([
          { type: "config", scope: "ignored: the reducer reads deep-context-config.json" },
          iteration(3, { focus: "Third", agreementRate: "0.5", sliceCoverage: 0.126 }),
          iteration(1, { newAgreementEligible: "4", findingsCount: "many" }),
          { type: "event", event: "resumed", sessionId: "ctx-test-2", lineageMode: "resume", generation: 2 },
          { ...iteration(2), event: "progress_record" },
          { type: "progress", run: 9 },
          iteration("x", { focus: null }),
          {
            type: "event",
            event: "graph_convergence",
            decision: "STOP_BLOCKED",
            signals: { sliceCoverage: 1, reuseCatalogCoverage: 0.6666, agreementRate: "0.5", relevanceFloor: 0.005, dependencyCompleteness: 0.995 },
            blockers: ["low_relevance_focus", { type: "uncovered_slices", count: 2 }, { name: "named" }, { severity: "warning" }, 42, null],
          },
          { type: "event", event: "restarted", sessionId: "", lineageMode: "restart", generation: 3 },
          iteration(4, { status: "error", focus: "Broke" }),
          null,
          7,
          "text",
          [1, 2],
        ]),
      );
    },
  },

  "config-variants": {
    spec: "specs/config",
    build(root) {
      write(
        ctx(root, this.spec, "deep-context-config.json"),
        json({ scope: "Only config", relevanceGate: "0.9", agreementMin: 1.5, status: "Completed", maxIterations: "six", createdAt: 20260101, lineage: { sessionId: 7, lineageMode: "", generation: "2" } }),
      );
      write(ctx(root, this.spec, "seats", "iter-001", "a.json"), json([F("src/a.ts", "a", { relevance: 0.56 })]));
      write(ctx(root, this.spec, "seats", "iter-001", "b.json"), json([F("src/a.ts", "a", { relevance: 0.1 })]));
    },
  },

  "config-zero": {
    spec: "specs/zero",
    build(root) {
      write(ctx(root, this.spec, "deep-context-config.json"), "0");
    },
  },

  "config-null": {
    spec: "specs/null",
    build(root) {
      write(ctx(root, this.spec, "deep-context-config.json"), "null");
      write(ctx(root, this.spec, "deep-context-state.jsonl"), jsonl([iteration(1)]) + '{"torn');
    },
  },

  "iteration-dirs": {
    spec: "specs/iters",
    build(root) {
      const seat = (it: string, label: string, body: unknown) => write(ctx(root, this.spec, "seats", it, `${label}.json`), json(body));
      seat("iter-10", "a", [F("src/ten.ts", "t"), F("src/shared.ts", "s", { relevance: 0.7 })]);
      seat("iter-2", "a", [F("src/two.ts", "t"), F("src/shared.ts", "s")]);
      seat("iter-001", "a", [F("src/one.ts", "t")]);
      seat("iter-1", "b", [F("src/one.ts", "t")]);
      seat("iter-x", "a", [F("src/ignored.ts", "t")]);
      seat("archive", "a", [F("src/ignored.ts", "t")]);
      seat("iter-99999999999999999999", "z", [F("src/huge.ts", "h")]);
      write(ctx(root, this.spec, "seats", "iter-003.json"), "[]");
    },
  },

  "iteration-dir-is-file": {
    spec: "specs/iterfile",
    build(root) {
      write(ctx(root, this.spec, "deep-context-state.jsonl"), jsonl([iteration(1)]) + "torn");
      write(ctx(root, this.spec, "seats", "iter-001", "a.json"), "[]");
      write(ctx(root, this.spec, "seats", "iter-002"), "not a folder");
    },
  },

  unicode: {
    spec: "specs/unicode",
    build(root) {
      write(ctx(root, this.spec, "deep-context-config.json"), json({ ...BASE_CONFIG, scope: "Zahlungen — café 日本 😀" }));
      const seat = (label: string, text: string | Buffer) => write(ctx(root, this.spec, "seats", "iter-001", `${label}.json`), text);
      seat("a", json([F("src/é.ts", "naïve", { signature: "f(x: 日本) → 😀", notes: "control \u0000\u0001\u001f and \u007f", evidence: "src/é.ts:3" }), F("src/lone.ts", "lone", { signature: "\ud800 lone" })]));
      seat("b", Buffer.concat([Buffer.from('[{"path":"src/bad-utf8.ts","symbol":"s'), Buffer.from([0xff, 0xc3, 0x28]), Buffer.from('","relevance":0.9,"notes":"n'), Buffer.from([0xe2, 0x82]), Buffer.from('"}]')]));
      seat("c", json([F("src/é.ts", "naïve", { signature: "f(x: 日本) → 😀" }), F("src/lone.ts", "lone", { signature: "\udc00 other" })]));
    },
  },

  "child-phase": {
    spec: "specs/parent/001-child",
    build(root) {
      write(path.join(root, "specs", "parent", "spec.md"), "# Parent\n");
      write(ctx(root, this.spec, "deep-context-config.json"), json({ ...BASE_CONFIG, specFolder: "specs/parent/001-child" }));
      write(ctx(root, this.spec, "seats", "iter-001", "a.json"), json([F("src/a.ts", "a")]));
    },
  },

  "child-phase-new-part": {
    spec: "specs/parent/002-child",
    build(root) {
      write(path.join(root, "specs", "parent", "spec.md"), "# Parent\n");
      // The flat packet belongs to another spec folder: the reducer allocates context/002-child-pt-01/.
      write(ctx(root, this.spec, "deep-context-config.json"), json({ ...BASE_CONFIG, specFolder: "specs/parent/other" }));
      write(ctx(root, this.spec, "seats", "iter-001", "a.json"), json([F("src/a.ts", "a")]));
    },
  },

  "child-phase-existing-part": {
    spec: "specs/parent/003-child",
    build(root) {
      write(path.join(root, "specs", "parent", "spec.md"), "# Parent\n");
      write(ctx(root, this.spec, "deep-context-config.json"), json({ ...BASE_CONFIG, specFolder: "specs/parent/other" }));
      const part = ctx(root, this.spec, "003-child-pt-02");
      write(path.join(part, "deep-context-state.jsonl"), jsonl([{ type: "config", specFolder: "specs/parent/003-child" }, iteration(1)]));
      write(path.join(part, "seats", "iter-001", "a.json"), json([F("src/part.ts", "p")]));
    },
  },

  "random-mid": {
    spec: "specs/random",
    build(root) {
      const rand = mulberry32(42);
      const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
      const kinds = ["reuse_candidate", "integration_point", "convention", "dependency", "gap", "", " gap", "pattern"];
      const labels = ["native-a", "native-b", "mimo", "gpt-5", "10", "2"];
      write(ctx(root, this.spec, "deep-context-config.json"), json({ ...BASE_CONFIG, maxIterations: 3 }));
      write(ctx(root, this.spec, "deep-context-state.jsonl"), jsonl([iteration(1), iteration(2), iteration(3)]));
      for (let it = 1; it <= 3; it++) {
        for (const label of labels) {
          const findings: unknown[] = [];
          for (let k = 0; k < 120; k++) {
            const u = Math.floor(rand() * 260);
            const f: Record<string, unknown> = {
              path: `src/${["core", "api", "db", "ui"][u % 4]}/mod${u % 37}.ts${rand() < 0.03 ? " " : ""}`,
              symbol: `${pick(["get", "set", "load", "Save", "ä"])}${u % 53}${rand() < 0.03 ? "  x" : ""}`,
              kind: u % 11 === 0 ? pick(kinds) : kinds[u % 5],
              relevance: Math.round(rand() * 1000) / 1000,
            };
            if (rand() < 0.8) f.signature = `fn${u}(${rand() < 0.1 ? "a, b" : "a"})`;
            if (rand() < 0.6) f.reuse = pick(["extend", "compose", "wrap", "import", ""]);
            if (rand() < 0.5) f.evidence = `${f.path as string}:${u}`;
            if (rand() < 0.5) f.notes = `note ${u} by ${label}`;
            if (rand() < 0.02) f.relevance = pick(["0.7", "bad", null, true]);
            if (rand() < 0.01) f.unit_id = `explicit-${u % 5}`;
            findings.push(rand() < 0.01 ? "junk" : f);
          }
          write(ctx(root, this.spec, "seats", `iter-00${it}`, `${label}.json`), json(it % 2 ? findings : { findings }));
        }
      }
    },
  },
};

/** Spec folders the reference refuses (shell metacharacters), with the case name used for the oracle. */
export const UNSAFE_SPEC_FOLDERS: Record<string, string> = {
  "unsafe-dollar": "specs/a$b",
  "unsafe-quote": "specs/it's",
  "unsafe-backslash": "specs/a\\b",
};

/** Absolute paths in the reference's stdout/stderr are recorded relative to this placeholder. */
export const ROOT_PLACEHOLDER = "<ROOT>";

export interface TreeEntry {
  path: string;
  /** "dir", or the file's size and sha256 (first 16 hex). */
  dir?: true;
  size?: number;
  sha256?: string;
}

/**
 * Every folder and file under root (sorted, forward slashes), files with size and hash,
 * except the reducer's outputs (compared byte for byte on their own): what a reduce left
 * on disk besides its outputs (a truncated state log, created folders).
 */
export function snapshotTree(root: string): TreeEntry[] {
  const out: TreeEntry[] = [];
  const walk = (rel: string) => {
    const abs = path.join(root, rel);
    for (const name of fs.readdirSync(abs).sort()) {
      // The test root's repository marker (the reducer is confined to the repository).
      if (!rel && name === ".git") continue;
      const r = rel ? `${rel}/${name}` : name;
      const st = fs.statSync(path.join(abs, name));
      if (st.isDirectory()) {
        out.push({ path: r, dir: true });
        walk(r);
      } else if (name !== "findings-registry.json" && name !== "deep-context-dashboard.md") {
        const data = fs.readFileSync(path.join(abs, name));
        out.push({ path: r, size: data.length, sha256: crypto.createHash("sha256").update(data).digest("hex").slice(0, 16) });
      }
    }
  };
  walk("");
  return out;
}

/** The registry and dashboard files a reduce wrote anywhere under root (relative paths). */
export function findOutputs(root: string): { registry: string[]; dashboard: string[] } {
  const registry: string[] = [];
  const dashboard: string[] = [];
  const walk = (rel: string) => {
    for (const e of fs.readdirSync(path.join(root, rel), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(r);
      else if (e.name === "findings-registry.json") registry.push(r);
      else if (e.name === "deep-context-dashboard.md") dashboard.push(r);
    }
  };
  walk("");
  return { registry, dashboard };
}

/** What the oracle recorded for a case (tests/fixtures/deep-context/oracle/<case>/result.json). */
export interface OracleResult {
  exitCode: number;
  /** stdout/stderr with the packet root replaced by <ROOT>. */
  stdout: string;
  stderr: string;
  /** Where the registry and dashboard were written, relative to the root. */
  outputs: { registry: string[]; dashboard: string[] };
  tree: TreeEntry[];
}
