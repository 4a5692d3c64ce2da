/**
 * Human signing keys, loaded on the server only. A key signs approvals (HMAC-SHA256), so whoever
 * holds it can approve on a human's behalf: it never comes from a request, never goes to the
 * browser or a delegated agent, and never appears in a log, an error message or a JSON dump.
 *
 * Sources, as the harness defines them: the environment variable `AGENT_COLLAB_HUMAN_KEYS_JSON`
 * (`{"key_id": "secret"}`), or else a key file named by `WORKBENCH_HUMAN_KEYS_FILE` with the same
 * JSON. The file must live outside the project: an agent working in the project can read every
 * file in it, and a key it can read is a key it can sign with.
 *
 * A loaded secret is usable only when its SHA-256 equals the hash the policy pins for its key id
 * (`human_authorization.key_hashes`): the policy, not the environment, says who may approve.
 */
import crypto from "node:crypto";
import path from "node:path";
import { inspect } from "node:util";
import { WorkbenchError } from "../core/errors";
import { readEnv, type EnvName } from "../core/env";
import { namedFileFailure, readRegularFileSync, realPathOrSelf } from "../core/fs/named-file";
import { sha256Hex } from "./canonical-json";
import { PyJsonSyntaxError, decodeUtf8Strict, parsePyJson } from "./py-json";

export const KEYS_ENV = "AGENT_COLLAB_HUMAN_KEYS_JSON" satisfies EnvName;
export const KEYS_FILE_ENV = "WORKBENCH_HUMAN_KEYS_FILE" satisfies EnvName;
/** A key file is a small JSON object; anything larger is not one. */
const MAX_KEY_FILE_BYTES = 1024 * 1024;

/** Where the loaded keys came from (shown to users; never the secrets themselves). */
export type KeySource = "env" | "file" | "none" | "explicit" | "sample";

/** Python's `str.isspace()` set: the harness refuses key ids containing any of these. */
const PY_SPACE = /[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/;

export function hasPyWhitespace(s: string): boolean {
  return PY_SPACE.test(s);
}

/** Loaded secrets by key id. Serialises and inspects as key ids only. */
export class HumanKeys {
  readonly #secrets: Map<string, string>;

  constructor(
    secrets: Map<string, string> | Record<string, string>,
    readonly source: KeySource = "explicit",
  ) {
    this.#secrets = new Map(secrets instanceof Map ? secrets : Object.entries(secrets));
  }

  static none(): HumanKeys {
    return new HumanKeys(new Map(), "none");
  }

  keyIds(): string[] {
    return [...this.#secrets.keys()].sort();
  }

  has(keyId: string): boolean {
    return this.#secrets.has(keyId);
  }

  /** The secret for signing or verifying on this server. Never send it anywhere. */
  secretFor(keyId: string): string | undefined {
    return this.#secrets.get(keyId);
  }

  toJSON(): { source: KeySource; keyIds: string[] } {
    return { source: this.source, keyIds: this.keyIds() };
  }

  toString(): string {
    return `HumanKeys(${this.source}: ${this.keyIds().join(", ") || "none"})`;
  }

  [inspect.custom](): string {
    return this.toString();
  }
}

/**
 * Parses `{"key_id": "secret"}` with the harness's rules (object, no duplicate ids, ids non-empty
 * without whitespace, secrets non-empty strings). Messages name key ids, never secret text.
 */
export function parseHumanKeysJson(raw: string, label = KEYS_ENV, source: KeySource = "env"): HumanKeys {
  let value: unknown;
  try {
    value = parsePyJson(raw);
  } catch (e) {
    // The syntax error's position is safe to show; its text could quote a secret, so it is dropped.
    const dup = e instanceof PyJsonSyntaxError && e.reason.startsWith("duplicate JSON key: ") ? e.reason : null;
    throw new WorkbenchError("INVALID_INPUT", dup ?? `${label} must be a JSON object`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new WorkbenchError("INVALID_INPUT", `${label} must be a JSON object`);
  }
  const out = new Map<string, string>();
  for (const [keyId, secret] of Object.entries(value)) {
    if (!keyId || hasPyWhitespace(keyId)) {
      throw new WorkbenchError("INVALID_INPUT", "human authorization key ids must be non-empty and contain no whitespace");
    }
    if (typeof secret !== "string" || !secret) {
      throw new WorkbenchError("INVALID_INPUT", `human authorization secret must be non-empty: ${keyId}`);
    }
    out.set(keyId, secret);
  }
  return new HumanKeys(out, source);
}

function isInside(root: string, p: string): boolean {
  const rel = path.relative(root, p);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

export interface LoadKeysOptions {
  /** Environment to read (default `process.env`). */
  env?: Record<string, string | undefined>;
  /** An explicit key file; overrides `WORKBENCH_HUMAN_KEYS_FILE`. */
  keyFile?: string;
  /** Project roots the key file must be outside of (checked lexically and after resolving links). */
  projectRoots?: string[];
}

/**
 * The human keys of this server: `AGENT_COLLAB_HUMAN_KEYS_JSON` when set (the harness's source),
 * else the key file, else none. A key file inside a project root is refused with UNSAFE_PATH.
 */
export function loadHumanKeys(opts: LoadKeysOptions = {}): HumanKeys {
  const env = opts.env ?? process.env;
  const raw = readEnv(KEYS_ENV, env);
  if (raw !== undefined) return parseHumanKeysJson(raw, KEYS_ENV, "env");
  const file = opts.keyFile ?? readEnv(KEYS_FILE_ENV, env);
  if (!file) return HumanKeys.none();
  const abs = path.resolve(/*turbopackIgnore: true*/ file);
  const real = realPathOrSelf(abs);
  for (const root of opts.projectRoots ?? []) {
    const rootAbs = path.resolve(root);
    if (isInside(rootAbs, abs) || isInside(realPathOrSelf(rootAbs), real)) {
      throw new WorkbenchError("UNSAFE_PATH", `The human key file ${abs} is inside the project ${rootAbs}; keep it outside every project so agents cannot read it.`);
    }
  }
  let bytes: Buffer;
  try {
    // A regular file only: a named pipe here would otherwise hold every page that loads keys.
    bytes = readRegularFileSync(real, MAX_KEY_FILE_BYTES);
  } catch (e) {
    const f = namedFileFailure(e);
    if (!f) throw e;
    if (f.reason === "missing") throw new WorkbenchError("NOT_FOUND", `No human key file at ${abs}.`);
    if (f.reason === "not_regular") throw new WorkbenchError("UNREADABLE", `The human key file ${abs} is ${f.special ?? "not a regular file"}, not a regular file; it is not read.`);
    if (f.reason === "too_large") throw new WorkbenchError("TOO_LARGE", `The human key file ${abs} is larger than ${MAX_KEY_FILE_BYTES} bytes; it is not read.`);
    throw new WorkbenchError("UNREADABLE", `The human key file ${abs} cannot be read (${f.errno ?? "error"}).`);
  }
  let text: string;
  try {
    text = decodeUtf8Strict(bytes);
  } catch {
    throw new WorkbenchError("INVALID_INPUT", `The human key file ${abs} is not UTF-8 text.`);
  }
  return parseHumanKeysJson(text, `The human key file ${abs}`, "file");
}

/** The part of a policy that pins signing keys (Policy v1 `human_authorization`). */
export interface KeyPinning {
  human_authorization: { key_hashes: Record<string, string> };
}

function safeEqualHex(a: string, b: string): boolean {
  const ba = Buffer.from(a, "utf8");
  const bb = Buffer.from(b, "utf8");
  return ba.length === bb.length && crypto.timingSafeEqual(ba, bb);
}

export type PinnedSecret = { ok: true; secret: string } | { ok: false; code: "key_not_pinned" | "no_secret" | "secret_hash_mismatch" };

/** The secret for a key id, only when the policy pins that id and the secret's hash matches the pin. */
export function pinnedSecret(policy: KeyPinning, keys: HumanKeys | undefined, keyId: string): PinnedSecret {
  const hashes = policy.human_authorization.key_hashes;
  if (!Object.prototype.hasOwnProperty.call(hashes, keyId)) return { ok: false, code: "key_not_pinned" };
  const secret = keys?.secretFor(keyId);
  if (secret === undefined) return { ok: false, code: "no_secret" };
  if (!safeEqualHex(sha256Hex(secret), hashes[keyId]!)) return { ok: false, code: "secret_hash_mismatch" };
  return { ok: true, secret };
}

export interface Signer {
  keyId: string;
  /** True when the policy pins this key id and the loaded secret matches the pinned hash. */
  pinned: boolean;
  /** Why a loaded key cannot sign, when it cannot. */
  reason?: "key_not_pinned" | "secret_hash_mismatch";
}

/** The loaded keys and whether each can sign under this policy (for a "sign as" picker). */
export function availableSigners(policy: KeyPinning, keys: HumanKeys): Signer[] {
  return keys.keyIds().map((keyId) => {
    const r = pinnedSecret(policy, keys, keyId);
    if (r.ok) return { keyId, pinned: true };
    return { keyId, pinned: false, reason: r.code === "key_not_pinned" ? "key_not_pinned" : "secret_hash_mismatch" };
  });
}
