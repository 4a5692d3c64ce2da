import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sha256Hex } from "../../../lib/memory/canonical-json";
import { HumanKeys } from "../../../lib/memory/keys";
import { validatePolicy } from "../../../lib/policy/validate";

export const REPO = path.resolve(import.meta.dirname, "../../..");
export const SAMPLE = path.join(REPO, "examples", "sample-project");
export const KEY_ID = "priya";
export const SECRET = "priya-signing-secret";
export const keys = new HumanKeys({ [KEY_ID]: SECRET });
/** The two proposals of the sample project. */
export const ADD_ID = "8d3a6f12-4b7e-4c91-9f0a-1e5d2c8b7a63";
export const SUPERSEDE_ID = "e27b9c40-5f18-4a3d-8e6c-9b1d0f4a2c75";

const made: string[] = [];

/** A copy of the sample project (without .git) whose policy pins priya's key. */
export function sampleCopy(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wb-coord-"));
  made.push(dir);
  const root = path.join(dir, "sample");
  fs.cpSync(SAMPLE, root, { recursive: true, filter: (src) => path.basename(src) !== ".git" });
  const policyPath = path.join(root, ".coord", "policy.json");
  const policy = JSON.parse(fs.readFileSync(policyPath, "utf8"));
  policy.human_authorization.key_hashes = { [KEY_ID]: sha256Hex(SECRET) };
  fs.writeFileSync(policyPath, JSON.stringify(policy, null, 2) + "\n");
  return root;
}

export function projectPolicy(root: string) {
  return validatePolicy(JSON.parse(fs.readFileSync(path.join(root, ".coord", "policy.json"), "utf8")));
}

export function removeCopies(): void {
  for (const d of made.splice(0)) fs.rmSync(d, { recursive: true, force: true });
}

export const memoryPath = (root: string) => path.join(root, ".coord", "memory.yml");
export const proposalPath = (root: string, id: string) => path.join(root, ".coord", "memory-proposals", `${id}.json`);
