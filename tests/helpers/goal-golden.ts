import fs from "node:fs";
import path from "node:path";

/** One case of tests/unit/policy/goal-golden (see its README): the reference's files, command, stdout and exit code. */
export interface GoldenCase {
  name: string;
  spec: string;
  command: "evaluate" | "policy-validate" | "checkpoint-validate";
  args: string[];
  /** File name -> exact text. */
  files: Record<string, string>;
  env?: { AGENT_COLLAB_HUMAN_KEYS_JSON: string };
  stdout: string;
  exit: number;
}

const DIR = path.resolve(import.meta.dirname, "../unit/policy/goal-golden");

export function loadGoldenCases(file: "cases.json" | "replay-100-slices.json"): GoldenCase[] {
  const raw = JSON.parse(fs.readFileSync(path.join(DIR, file), "utf8")) as { documents: Record<string, string>; cases: (Omit<GoldenCase, "files"> & { files: Record<string, string | { document: string }> })[] };
  return raw.cases.map((c) => ({ ...c, files: Object.fromEntries(Object.entries(c.files).map(([f, t]) => [f, typeof t === "string" ? t : raw.documents[t.document]!])) }));
}

/** A case by name, with its policy and checkpoint texts (evaluate cases). */
export function goldenCase(name: string): GoldenCase & { policy: string; checkpoint: string } {
  const c = loadGoldenCases("cases.json").find((x) => x.name === name);
  if (!c) throw new Error(`no golden case named ${name}`);
  const arg = (flag: string) => c.args[c.args.indexOf(flag) + 1]!;
  return { ...c, policy: c.files[arg("--policy")]!, checkpoint: c.files[arg("--checkpoint")]! };
}

/** The reference tests' signing key: `owner` with this secret is pinned in every golden goal policy. */
export const GOLDEN_KEYS_JSON = JSON.stringify({ owner: "test-owner-secret" });
