/**
 * SAMPLE ONLY, NOT A SECRET. The bundled sample project's approver key, so a newcomer can try
 * the whole memory-proposal journey (sign a decision, verify it, apply it) without setting up
 * keys first. It is committed here in plain text, so anyone can sign with it: it proves
 * nothing about who approved. That is why the Workbench offers it only
 *   - for the bundled sample: the copy `workbench serve --sample` makes in the data folder,
 *     whose policy `pinSampleKey` pins it in (never any other project, even one whose policy
 *     pins the same hash, since anyone can compute it);
 *   - in local mode: never in team mode, where approvals are bound to accounts.
 * Real approver keys come from AGENT_COLLAB_HUMAN_KEYS_JSON or WORKBENCH_HUMAN_KEYS_FILE (README,
 * "Approver keys").
 */
import path from "node:path";
import { realPathOrSelf } from "../core/fs/named-file";
import { ProjectFs } from "../core/project-fs";
import { sha256Hex } from "./canonical-json";
import { HumanKeys } from "./keys";

/** Shown as `human:sample-only-not-secret`: the id says what it is wherever it appears. */
export const SAMPLE_KEY_ID = "sample-only-not-secret";
export const SAMPLE_KEY_SECRET = "sample-only approver key for the bundled sample project in local mode; public, not a secret";

export interface SampleKeyScope {
  /** The project whose decisions are signed. */
  projectRoot: string;
  /** Where `workbench serve --sample` puts the bundled sample (`<data dir>/sample-project`). */
  sampleRoot: string;
  /** Team mode never gets the sample key. */
  team: boolean;
}

/** Whether the sample key may sign for this project: the bundled sample, in local mode. */
export function sampleKeyApplies(scope: SampleKeyScope): boolean {
  if (scope.team) return false;
  return realPathOrSelf(path.resolve(scope.projectRoot)) === realPathOrSelf(path.resolve(scope.sampleRoot));
}

/** The server's keys, plus the sample key where it applies (a configured key of the same id wins). */
export function withSampleKey(keys: HumanKeys, scope: SampleKeyScope): HumanKeys {
  if (!sampleKeyApplies(scope) || keys.has(SAMPLE_KEY_ID)) return keys;
  const all = new Map(keys.keyIds().map((id) => [id, keys.secretFor(id)!] as const));
  all.set(SAMPLE_KEY_ID, SAMPLE_KEY_SECRET);
  return new HumanKeys(all, keys.source === "none" ? "sample" : keys.source);
}

/**
 * Pins the sample key in the bundled sample's `.coord/policy.json` (its sha256 under
 * `human_authorization.key_hashes`), as a person pins their own key. Called once, when
 * `workbench serve --sample` creates the sample; examples/sample-project keeps the reference
 * policy unchanged.
 */
export function pinSampleKey(sampleRoot: string): void {
  const fsys = ProjectFs.openSync(sampleRoot);
  const file = ".coord/policy.json";
  const policy = JSON.parse(fsys.readTextSync(file)) as { human_authorization?: { key_hashes?: Record<string, string> } };
  const auth = (policy.human_authorization ??= {});
  auth.key_hashes = { ...auth.key_hashes, [SAMPLE_KEY_ID]: sha256Hex(SAMPLE_KEY_SECRET) };
  fsys.writeTextAtomicSync(file, JSON.stringify(policy, null, 2) + "\n");
}
