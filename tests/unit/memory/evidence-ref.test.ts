import { describe, expect, it } from "vitest";
import { parseEvidenceRef } from "../../../lib/memory/evidence-ref";

/**
 * Refs as agents write them. The first two are agent-collab's own form (issue 17: its records
 * cite `tests/test_harness_policy.py::test_override_must_be_authorized…`, a test of
 * WenyuChiou/agent-collab-skills); the others are evidence_refs found in public repositories.
 */
const AGENT_COLLAB_NODE_ID = "tests/test_harness_policy.py::test_override_must_be_authorized_before_original_limit_is_exhausted";

const part = (ref: string) => {
  const r = parseEvidenceRef(ref);
  return [r.form, r.path, r.symbol?.lookFor ?? null, r.lines ? [r.lines.start, r.lines.end] : null, r.fragment];
};

describe("evidence ref grammar", () => {
  it.each([
    // pytest node ids: the path part resolves, the last name is the symbol
    [AGENT_COLLAB_NODE_ID, "node_id", "tests/test_harness_policy.py", "test_override_must_be_authorized_before_original_limit_is_exhausted", null, null],
    ["tests/transitions/test_final_gate.py::_output", "node_id", "tests/transitions/test_final_gate.py", "_output", null, null],
    ["tests/test_policy.py::TestOverrides::test_late_override", "node_id", "tests/test_policy.py", "test_late_override", null, null],
    ["tests/test_policy.py::test_limits[max_tool_calls-20]", "node_id", "tests/test_policy.py", "test_limits", null, null],
    ["tests/test_policy.py::TestC::test_x[a::b]", "node_id", "tests/test_policy.py", "test_x", null, null],
    ["tests/test_policy.py::test_x[http://example.com]", "node_id", "tests/test_policy.py", "test_x", null, null],
    ["src/auth/session.ts::SessionService.revoke()", "node_id", "src/auth/session.ts", "revoke", null, null],
    // line ranges
    ["src/a.ts#L10-L20", "lines", "src/a.ts", null, [10, 20], null],
    ["src/a.ts#L10-20", "lines", "src/a.ts", null, [10, 20], null],
    ["src/a.ts#L7", "lines", "src/a.ts", null, [7, 7], null],
    ["src/a.ts:12", "lines", "src/a.ts", null, [12, 12], null],
    ["src/a.ts:12-20", "lines", "src/a.ts", null, [12, 20], null],
    ["src/a.ts:12:5", "lines", "src/a.ts", null, [12, 12], null],
    // path:symbol where unambiguous
    ["src/auth/session.ts:SessionService.revoke", "symbol", "src/auth/session.ts", "revoke", null, null],
    ["src/x.ts:revoke()", "symbol", "src/x.ts", "revoke", null, null],
    ["lib/util/cache:evict", "symbol", "lib/util/cache", "evict", null, null],
    // other fragments: kept, resolved by the path
    ["agi/USER_INPUT_INBOX.json#revision-28", "path", "agi/USER_INPUT_INBOX.json", null, null, "revision-28"],
    ["tests/regression/foo.test.ts#it_returns_200", "path", "tests/regression/foo.test.ts", null, null, "it_returns_200"],
    // plain paths, and ambiguous colons kept whole
    ["docs/public-harness-contract.md", "path", "docs/public-harness-contract.md", null, null, null],
    ["sqlite:learning_event_records", "path", "sqlite:learning_event_records", null, null, null],
    ["kernel-card:responsive-final-gate-fixture", "path", "kernel-card:responsive-final-gate-fixture", null, null, null],
    ["Makefile:build", "path", "Makefile:build", null, null, null],
    ["C:notes", "path", "C:notes", null, null, null],
    ["src/a.ts:Foo-bar", "path", "src/a.ts:Foo-bar", null, null, null],
    ["src/a.ts:one:two", "path", "src/a.ts:one:two", null, null, null],
    ["tests/a.py::", "path", "tests/a.py::", null, null, null],
    ["tests/a.py::test x", "path", "tests/a.py::test x", null, null, null],
    // drive letters are paths (absolute, so outside the project), never `path:symbol`
    ["C:\\work\\a.py", "path", "C:\\work\\a.py", null, null, null],
    ["C:/work/a.py:12", "lines", "C:/work/a.py", null, [12, 12], null],
    ["C:/work/a.py::test_x", "node_id", "C:/work/a.py", "test_x", null, null],
    // not project paths
    ["https://example.com/a.py::test_x", "url", null, null, null, null],
    ["", "path", null, null, null, null],
    ["   ", "path", null, null, null, null],
  ] as const)("%j → %s", (ref, form, path, symbol, lines, fragment) => {
    expect(part(ref)).toEqual([form, path, symbol, lines, fragment]);
  });

  it("keeps the ref as written and what follows the path as written", () => {
    expect(parseEvidenceRef("  tests/a.py::TestC::test_x[p-1] ")).toEqual({
      ref: "  tests/a.py::TestC::test_x[p-1] ",
      form: "node_id",
      path: "tests/a.py",
      symbol: { written: "TestC::test_x[p-1]", lookFor: "test_x" },
      lines: null,
      fragment: null,
    });
  });
});
