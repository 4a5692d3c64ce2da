import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { sha256Hex } from "../../../lib/memory/canonical-json";
import { decideProposalFile } from "../../../lib/memory/decide";
import { HumanKeys, pinnedSecret } from "../../../lib/memory/keys";
import { SAMPLE_KEY_ID, SAMPLE_KEY_SECRET, pinSampleKey, sampleKeyApplies, withSampleKey } from "../../../lib/memory/sample-key";
import { ADD_ID, SAMPLE, projectPolicy, proposalPath } from "./helpers";

const made: string[] = [];
afterEach(() => {
  for (const d of made.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** A data folder holding the bundled sample as `workbench serve --sample` makes it, and another project. */
function dataDir(): { sampleRoot: string; other: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wb-samplekey-"));
  made.push(dir);
  const copy = (to: string) => fs.cpSync(SAMPLE, to, { recursive: true, filter: (src) => path.basename(src) !== ".git" });
  const sampleRoot = path.join(dir, "sample-project");
  const other = path.join(dir, "other-project");
  copy(sampleRoot);
  copy(other);
  pinSampleKey(sampleRoot);
  return { sampleRoot, other };
}

describe("the sample-only approver key", () => {
  it("is pinned in the bundled sample's policy, and the reference sample in examples/ stays unpinned", () => {
    const { sampleRoot } = dataDir();
    expect(projectPolicy(sampleRoot).human_authorization.key_hashes).toEqual({ [SAMPLE_KEY_ID]: sha256Hex(SAMPLE_KEY_SECRET) });
    expect(projectPolicy(SAMPLE).human_authorization.key_hashes).toEqual({});
  });

  it("signs for the bundled sample in local mode", async () => {
    const { sampleRoot } = dataDir();
    const keys = withSampleKey(HumanKeys.none(), { projectRoot: sampleRoot, sampleRoot, team: false });
    expect(keys.keyIds()).toEqual([SAMPLE_KEY_ID]);
    expect(keys.source).toBe("sample");
    const policy = projectPolicy(sampleRoot);
    expect(pinnedSecret(policy, keys, SAMPLE_KEY_ID)).toEqual({ ok: true, secret: SAMPLE_KEY_SECRET });
    const signed = await decideProposalFile(sampleRoot, ADD_ID, { decision: "approve", rationale: "trying the sample", keyId: SAMPLE_KEY_ID, taskId: "workbench-review" }, { keys, policy });
    expect(signed.state).toBe("approved");
    const onDisk = JSON.parse(fs.readFileSync(proposalPath(sampleRoot, ADD_ID), "utf8")) as { decision: { actor: string; authorization: { key_id: string; signature: string } } };
    expect(onDisk.decision).toMatchObject({ actor: `human:${SAMPLE_KEY_ID}`, authorization: { key_id: SAMPLE_KEY_ID } });
    expect(onDisk.decision.authorization.signature).toMatch(/^[0-9a-f]{64}$/);
  });

  it("is refused for any other project, even one whose policy pins the same (public) hash", async () => {
    const { sampleRoot, other } = dataDir();
    pinSampleKey(other);
    const scope = { projectRoot: other, sampleRoot, team: false };
    expect(sampleKeyApplies(scope)).toBe(false);
    const keys = withSampleKey(HumanKeys.none(), scope);
    expect(keys.keyIds()).toEqual([]);
    const policy = projectPolicy(other);
    expect(pinnedSecret(policy, keys, SAMPLE_KEY_ID)).toEqual({ ok: false, code: "no_secret" });
    await expect(decideProposalFile(other, ADD_ID, { decision: "approve", rationale: "forged", keyId: SAMPLE_KEY_ID, taskId: "workbench-review" }, { keys, policy })).rejects.toThrow();
    expect(JSON.parse(fs.readFileSync(proposalPath(other, ADD_ID), "utf8")).state).toBe("proposed");
  });

  it("is refused in team mode, even for the bundled sample", () => {
    const { sampleRoot } = dataDir();
    const scope = { projectRoot: sampleRoot, sampleRoot, team: true };
    expect(sampleKeyApplies(scope)).toBe(false);
    const keys = withSampleKey(new HumanKeys({ ana: "ana-secret" }, "env"), scope);
    expect(keys.keyIds()).toEqual(["ana"]);
    expect(pinnedSecret(projectPolicy(sampleRoot), keys, SAMPLE_KEY_ID)).toEqual({ ok: false, code: "no_secret" });
  });

  it("joins the server's own keys for the sample, and follows a link to the sample's folder", () => {
    const { sampleRoot } = dataDir();
    const link = path.join(path.dirname(sampleRoot), "link-to-sample");
    fs.symlinkSync(sampleRoot, link);
    const keys = withSampleKey(new HumanKeys({ ana: "ana-secret" }, "env"), { projectRoot: link, sampleRoot, team: false });
    expect(keys.keyIds()).toEqual(["ana", SAMPLE_KEY_ID]);
    expect(keys.source).toBe("env");
  });
});
