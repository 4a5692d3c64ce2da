import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { inspect } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { sha256Hex } from "../../../lib/memory/canonical-json";
import { computeSignature, signRecord, verifyRecord } from "../../../lib/memory/decision-record";
import { HumanKeys, availableSigners, loadHumanKeys, parseHumanKeysJson } from "../../../lib/memory/keys";
import { actionHash } from "../../../lib/memory/proposal";

const SECRET = "test-owner-secret";
const policy = { human_authorization: { key_hashes: { owner: sha256Hex(SECRET) } } };
const keys = new HumanKeys({ owner: SECRET });
const action = { operation: "add", target_ref: null, summary: "Sessions are revoked through SessionService.", evidence_refs: ["src/auth/SessionService.ts"] };
const otherAction = { ...action, summary: "Something else entirely." };

function signed(overrides: Record<string, unknown> = {}, keyId = "owner", secret = SECRET) {
  return signRecord(
    { gate: "H1", actor: `human:${keyId}`, decision: "approve", timestamp: "2026-08-31T00:00:00Z", rationale: "Approved contract change.", affected_action_hash: actionHash(action), ...overrides },
    keyId,
    secret,
  );
}
const codes = (r: ReturnType<typeof verifyRecord>) => (r.ok ? [] : r.failures.map((f) => f.code));

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "wb-keys-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe("signed human records", () => {
  it("signs exactly as the Python harness (HMAC over canonical JSON without authorization)", () => {
    const rec = { gate: "H1", actor: "human:owner", decision: "approve", timestamp: "2026-08-31T00:00:00Z", rationale: "Approved contract change.", affected_action_hash: "a".repeat(64) };
    // hmac.new(b"test-owner-secret", canonical(rec), sha256).hexdigest() in CPython
    expect(computeSignature(rec, SECRET)).toBe("a1df5aae93eb29af96211e160bbf018a31d5835417718f0a974583835bffb4bc");
    expect(signRecord(rec, "owner", SECRET).authorization).toEqual({ scheme: "hmac-sha256", key_id: "owner", signature: "a1df5aae93eb29af96211e160bbf018a31d5835417718f0a974583835bffb4bc" });
  });

  it("accepts a correctly signed record bound to the expected action", () => {
    expect(verifyRecord(signed(), policy, keys, { expectedActionHash: actionHash(action) })).toEqual({ ok: true, keyId: "owner" });
  });

  it("rejects a changed action: the hash no longer matches", () => {
    expect(codes(verifyRecord(signed(), policy, keys, { expectedActionHash: actionHash(otherAction) }))).toEqual(["action_hash_mismatch"]);
  });

  it("rejects a changed rationale (or decision): the signature no longer matches", () => {
    expect(codes(verifyRecord({ ...signed(), rationale: "Something I never said." }, policy, keys))).toEqual(["bad_signature"]);
    expect(codes(verifyRecord({ ...signed({ decision: "decline" }), decision: "approve" }, policy, keys))).toEqual(["bad_signature"]);
  });

  it("rejects a key the policy does not pin, a missing secret and a secret that does not hash to the pin", () => {
    expect(codes(verifyRecord(signed({}, "attacker", "agent-chosen-secret"), policy, new HumanKeys({ attacker: "agent-chosen-secret" })))).toEqual(["key_not_pinned"]);
    expect(codes(verifyRecord(signed(), policy, HumanKeys.none()))).toEqual(["no_secret"]);
    expect(codes(verifyRecord(signed(), policy, undefined))).toEqual(["no_secret"]);
    // The server holds a different secret under the pinned id: it must not be used at all.
    expect(codes(verifyRecord(signed(), policy, new HumanKeys({ owner: "another-secret" })))).toEqual(["secret_hash_mismatch"]);
    // Signed with a different secret while the server's secret is the pinned one.
    expect(codes(verifyRecord(signed({}, "owner", "another-secret"), policy, keys))).toEqual(["bad_signature"]);
  });

  it("rejects an actor that is not human:<key_id>", () => {
    const rec = signRecord({ gate: "H1", actor: "human:attacker", decision: "approve", timestamp: "2026-08-31T00:00:00Z", rationale: "r", affected_action_hash: actionHash(action) }, "owner", SECRET);
    const r = verifyRecord(rec, policy, keys);
    expect(codes(r)).toEqual(["actor_mismatch"]);
    expect(r.ok ? "" : r.failures[0]!.message).toBe("decision.actor must match authorization key_id human:owner");
  });

  it("rejects a signature replayed onto another proposal (different action hash)", () => {
    const original = signed();
    const replayed = { ...original, affected_action_hash: actionHash(otherAction) };
    expect(codes(verifyRecord(replayed, policy, keys, { expectedActionHash: actionHash(otherAction) }))).toEqual(["bad_signature"]);
    // And the untouched record does not authorize the other action either.
    expect(codes(verifyRecord(original, policy, keys, { expectedActionHash: actionHash(otherAction) }))).toEqual(["action_hash_mismatch"]);
  });

  it("fails closed on malformed records", () => {
    expect(codes(verifyRecord(null, policy, keys))).toEqual(["malformed"]);
    expect(codes(verifyRecord({ ...signed(), authorization: undefined }, policy, keys))).toEqual(["malformed"]);
    expect(codes(verifyRecord({ ...signed(), authorization: { ...signed().authorization, scheme: "none" } }, policy, keys))).toEqual(["unsupported_scheme"]);
  });
});

describe("human keys", () => {
  it("never shows a secret when serialised, inspected or printed", () => {
    const k = parseHumanKeysJson(JSON.stringify({ owner: "s3cr3t-value" }));
    expect(JSON.stringify(k)).not.toContain("s3cr3t-value");
    expect(inspect(k)).not.toContain("s3cr3t-value");
    expect(String(k)).not.toContain("s3cr3t-value");
    expect(k.keyIds()).toEqual(["owner"]);
  });

  it("validates the key map like the harness, without quoting secrets", () => {
    expect(() => parseHumanKeysJson('{"owner": "s3cr3t-value"')).toThrow("AGENT_COLLAB_HUMAN_KEYS_JSON must be a JSON object");
    expect(() => parseHumanKeysJson('{"owner": s3cr3t-value}')).toThrow(/^(?![\s\S]*s3cr3t)/);
    expect(() => parseHumanKeysJson("[]")).toThrow("must be a JSON object");
    expect(() => parseHumanKeysJson('{"a b": "x"}')).toThrow("key ids must be non-empty and contain no whitespace");
    expect(() => parseHumanKeysJson('{"owner": ""}')).toThrow("human authorization secret must be non-empty: owner");
    expect(() => parseHumanKeysJson('{"owner": "x", "owner": "y"}')).toThrow("duplicate JSON key: owner");
  });

  it("loads from the environment first, then from a key file outside the project", () => {
    const file = path.join(tmp, "keys.json");
    fs.writeFileSync(file, JSON.stringify({ owner: SECRET }));
    const project = path.join(tmp, "project");
    fs.mkdirSync(project);
    expect(loadHumanKeys({ env: { AGENT_COLLAB_HUMAN_KEYS_JSON: '{"env": "e"}', WORKBENCH_HUMAN_KEYS_FILE: file } }).keyIds()).toEqual(["env"]);
    const fromFile = loadHumanKeys({ env: { WORKBENCH_HUMAN_KEYS_FILE: file }, projectRoots: [project] });
    expect(fromFile.source).toBe("file");
    expect(fromFile.secretFor("owner")).toBe(SECRET);
    expect(loadHumanKeys({ env: {} }).keyIds()).toEqual([]);
  });

  it("refuses a key file inside a project (also through a link)", () => {
    const project = path.join(tmp, "p2");
    fs.mkdirSync(path.join(project, ".secrets"), { recursive: true });
    const inside = path.join(project, ".secrets", "keys.json");
    fs.writeFileSync(inside, JSON.stringify({ owner: SECRET }));
    expect(() => loadHumanKeys({ env: { WORKBENCH_HUMAN_KEYS_FILE: inside }, projectRoots: [project] })).toThrow(expect.objectContaining({ code: "UNSAFE_PATH" }));
    const link = path.join(tmp, "link-keys.json");
    fs.symlinkSync(inside, link);
    expect(() => loadHumanKeys({ keyFile: link, env: {}, projectRoots: [project] })).toThrow(expect.objectContaining({ code: "UNSAFE_PATH" }));
  });

  it("refuses a key file that is a named pipe, a device or a folder at once, saying what it is", () => {
    const fifo = path.join(tmp, "keys-pipe.json");
    execFileSync("mkfifo", [fifo]);
    // In a child process: a read that waited for a writer would otherwise hang this test run.
    const script = `
      import { loadHumanKeys } from ${JSON.stringify(path.resolve(import.meta.dirname, "../../../lib/memory/keys.ts"))};
      const out = [];
      for (const keyFile of process.argv.slice(1)) {
        try { loadHumanKeys({ keyFile, env: {} }); out.push("loaded"); } catch (e) { out.push([e.code, e.message]); }
      }
      console.log(JSON.stringify(out));`;
    const r = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script, fifo, "/dev/zero", tmp], { encoding: "utf8", timeout: 20_000 });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([
      ["UNREADABLE", `The human key file ${fifo} is a named pipe, not a regular file; it is not read.`],
      ["UNREADABLE", "The human key file /dev/zero is a device, not a regular file; it is not read."],
      ["UNREADABLE", `The human key file ${tmp} is a folder, not a regular file; it is not read.`],
    ]);
    const big = path.join(tmp, "big-keys.json");
    fs.writeFileSync(big, JSON.stringify({ owner: "x".repeat(2 * 1024 * 1024) }));
    expect(() => loadHumanKeys({ keyFile: big, env: {} })).toThrow(expect.objectContaining({ code: "TOO_LARGE" }));
  });

  it("lists signers with whether the policy pins them", () => {
    const k = new HumanKeys({ owner: SECRET, stranger: "x", impostor: "y" });
    const p = { human_authorization: { key_hashes: { owner: sha256Hex(SECRET), impostor: sha256Hex("not-y") } } };
    expect(availableSigners(p, k)).toEqual([
      { keyId: "impostor", pinned: false, reason: "secret_hash_mismatch" },
      { keyId: "owner", pinned: true },
      { keyId: "stranger", pinned: false, reason: "key_not_pinned" },
    ]);
  });
});
