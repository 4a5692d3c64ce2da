import { WorkbenchError } from "./errors";

/**
 * Variables read without loading zod, because every CLI start needs them (where the database
 * is, whether statements are counted) and loading zod is a sixth of the 150 ms a start may
 * take. They stay declared and documented in ENV (./env.ts), whose schemas for them accept
 * exactly what these readers accept; tests/unit/core/env-plain.test.ts holds the two together.
 */

/** Any text (their schema is `z.string().optional()`). */
export const PLAIN_TEXT_ENV = ["WORKBENCH_DATA_DIR", "DATABASE_URL", "WORKBENCH_APP_ROOT", "GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR"] as const;
/** "1" on, "0" off (their schema is the `flag()` of ./env.ts). */
export const PLAIN_FLAG_ENV = ["WORKBENCH_QUERY_STATS"] as const;

export type PlainTextEnv = (typeof PLAIN_TEXT_ENV)[number];
export type PlainFlagEnv = (typeof PLAIN_FLAG_ENV)[number];

export function readPlainEnv(name: PlainTextEnv, source: Record<string, string | undefined> = process.env): string | undefined {
  return source[name];
}

/** A flag's value; any other value is refused with the message readEnv gives. */
export function readPlainFlag(name: PlainFlagEnv, source: Record<string, string | undefined> = process.env): "0" | "1" | undefined {
  const v = source[name];
  if (v === undefined || v === "0" || v === "1") return v;
  throw new WorkbenchError("INVALID_INPUT", `${name}: must be "1" (on) or "0" (off)`);
}

/** The variables that make git look for a project's refs somewhere other than its .git folder. */
export type GitLocationEnv = Partial<Record<"GIT_DIR" | "GIT_WORK_TREE" | "GIT_COMMON_DIR", string>>;

export function gitLocationEnv(source: Record<string, string | undefined> = process.env): GitLocationEnv {
  const out: GitLocationEnv = {};
  for (const name of ["GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR"] as const) {
    const v = readPlainEnv(name, source);
    if (v) out[name] = v;
  }
  return out;
}
