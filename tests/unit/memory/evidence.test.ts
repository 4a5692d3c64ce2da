import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ProjectFs } from "../../../lib/core/project-fs";
import { allEvidencePresent, checkEvidenceRef, describeEvidenceProblems, resolveEvidence } from "../../../lib/memory/evidence";
import { makeTempDir, removeTempDirs } from "../../helpers/project-builder";

afterAll(removeTempDirs);

const NODE_ID = "tests/test_harness_policy.py::test_override_must_be_authorized_before_original_limit_is_exhausted";

let root = "";
let pfs: ProjectFs;

beforeAll(async () => {
  const dir = makeTempDir("wb-evidence-");
  root = path.join(dir, "project");
  const write = (rel: string, text: string | Buffer) => {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  };
  write("tests/test_harness_policy.py", "import pytest\n\n\ndef test_override_must_be_authorized_before_original_limit_is_exhausted() -> None:\n    assert True\n");
  write("tests/test_policy.py", "class TestLimits:\n    def test_x_slow(self):\n        pass\n\n    @pytest.mark.parametrize('n', [1, 2])\n    def test_limits(self, n):\n        pass\n");
  write("src/auth/session.ts", `${Array.from({ length: 29 }, (_, i) => `// line ${i + 1}`).join("\n")}\nexport class SessionService { revoke() {} }\n`);
  write("tests/blob.py", Buffer.from([0x64, 0x65, 0x66, 0x00, 0x01, 0x02]));
  fs.mkdirSync(path.join(root, "docs/adr"), { recursive: true });
  write("../outside/test_secret.py", "def test_secret():\n    pass\n");
  fs.symlinkSync(path.join(dir, "outside/test_secret.py"), path.join(root, "tests/test_link.py"));
  pfs = await ProjectFs.open(root);
});

describe("evidence refs resolve by their path part", () => {
  it("agent-collab's pytest node id is present, and its test function occurs in the file", async () => {
    expect(await checkEvidenceRef(pfs, NODE_ID)).toEqual({
      ref: NODE_ID,
      status: "present",
      form: "node_id",
      path: "tests/test_harness_policy.py",
      symbol: {
        written: "test_override_must_be_authorized_before_original_limit_is_exhausted",
        lookFor: "test_override_must_be_authorized_before_original_limit_is_exhausted",
        found: true,
        note: "test_override_must_be_authorized_before_original_limit_is_exhausted occurs in tests/test_harness_policy.py",
      },
    });
  });

  it("a class::method id with a parametrization looks for the method's name", async () => {
    expect((await checkEvidenceRef(pfs, "tests/test_policy.py::TestLimits::test_limits[2]")).symbol).toMatchObject({ lookFor: "test_limits", found: true });
  });

  it("a symbol the file no longer has is shown as not found and does not gate: the ref is present", async () => {
    // `test_x` is a whole name: `test_x_slow` does not count.
    const c = await checkEvidenceRef(pfs, "tests/test_policy.py::TestLimits::test_x");
    expect(c).toMatchObject({ status: "present", symbol: { lookFor: "test_x", found: false, note: "test_x does not occur in tests/test_policy.py" } });
    expect(allEvidencePresent([c])).toBe(true);
  });

  it("a ref whose path part is missing stays missing, with the reason; the symbol is not looked for", async () => {
    const c = await checkEvidenceRef(pfs, "tests/test_gone.py::test_override");
    expect(c).toEqual({
      ref: "tests/test_gone.py::test_override",
      status: "missing",
      form: "node_id",
      path: "tests/test_gone.py",
      reason: "is missing",
      symbol: { written: "test_override", lookFor: "test_override", found: null, note: "test_override not looked for: tests/test_gone.py is missing" },
    });
    expect(describeEvidenceProblems([c])).toBe("tests/test_gone.py::test_override: missing (tests/test_gone.py is missing)");
  });

  it("a path part outside the project, or linking out of it, never resolves and its file is not read", async () => {
    const up = await checkEvidenceRef(pfs, "../outside/test_secret.py::test_secret");
    expect(up).toMatchObject({ status: "outside_project", path: "../outside/test_secret.py", reason: "points outside the project", symbol: { found: null } });
    const link = await checkEvidenceRef(pfs, "tests/test_link.py::test_secret");
    expect(link).toMatchObject({ status: "outside_project", path: "tests/test_link.py", reason: "links outside the project", symbol: { found: null } });
    expect(await checkEvidenceRef(pfs, "/etc/passwd:12")).toMatchObject({ status: "outside_project", lines: { found: null } });
    expect(describeEvidenceProblems([up, link])).toBe(
      "../outside/test_secret.py::test_secret: outside project (../outside/test_secret.py points outside the project); tests/test_link.py::test_secret: outside project (tests/test_link.py links outside the project)",
    );
  });

  it("line ranges say whether the file has those lines", async () => {
    const lines = async (ref: string) => (await checkEvidenceRef(pfs, ref)).lines;
    expect(await lines("src/auth/session.ts#L10-L20")).toEqual({ start: 10, end: 20, found: true, note: "src/auth/session.ts has lines 10-20 (of 30)" });
    expect(await lines("src/auth/session.ts:30")).toMatchObject({ found: true, note: "src/auth/session.ts has line 30 (of 30)" });
    expect(await lines("src/auth/session.ts:12:5")).toMatchObject({ start: 12, end: 12, found: true });
    expect(await lines("src/auth/session.ts#L25-L40")).toMatchObject({ found: false, note: "src/auth/session.ts has 30 lines, fewer than 40" });
    expect(await lines("src/auth/session.ts#L20-L10")).toMatchObject({ found: false, note: "20-10 is not a line range (it ends before it starts)" });
    expect(await lines("src/auth/session.ts:0")).toMatchObject({ found: false, note: "line 0: lines are counted from 1" });
    expect((await checkEvidenceRef(pfs, "src/auth/session.ts#L99")).status).toBe("present");
  });

  it("path:symbol is checked like a node id", async () => {
    expect(await checkEvidenceRef(pfs, "src/auth/session.ts:SessionService.revoke")).toMatchObject({ status: "present", form: "symbol", symbol: { lookFor: "revoke", found: true } });
    expect(await checkEvidenceRef(pfs, "src/auth/session.ts:SessionService.expire")).toMatchObject({ status: "present", symbol: { lookFor: "expire", found: false } });
  });

  it("a folder or a file that cannot be read as text resolves, and says why the symbol was not looked for", async () => {
    expect(await checkEvidenceRef(pfs, "docs/adr::test_x")).toMatchObject({ status: "present", symbol: { found: null, note: "test_x not looked for: docs/adr is a folder" } });
    expect(await checkEvidenceRef(pfs, "tests/blob.py::test_x")).toMatchObject({ status: "present", symbol: { found: null, note: "test_x not looked for: tests/blob.py is binary" } });
  });

  it("plain paths, fragments, URLs and blanks answer as before", async () => {
    const checks = await resolveEvidence(pfs, ["docs/adr", "tests/test_policy.py#TestLimits", "https://example.com/x", " ", "sqlite:learning_event_records"]);
    expect(checks).toEqual([
      { ref: "docs/adr", status: "present", form: "path", path: "docs/adr" },
      { ref: "tests/test_policy.py#TestLimits", status: "present", form: "path", path: "tests/test_policy.py", fragment: "TestLimits" },
      { ref: "https://example.com/x", status: "not_a_path", form: "url" },
      { ref: " ", status: "not_a_path", form: "path" },
      { ref: "sqlite:learning_event_records", status: "missing", form: "path", path: "sqlite:learning_event_records", reason: "is missing" },
    ]);
    expect(describeEvidenceProblems(checks)).toBe("https://example.com/x: not a path;  : not a path; sqlite:learning_event_records: missing");
  });
});
