/**
 * `agent-collab policy evaluate`, reproduced exactly (FORMATS §4, GOAL-POLICY): the documents are
 * validated (checkpoint first, then policy; each by the v2 rules when its schema_version equals
 * 2, else v1), a v2 document on either side needs v2 on both, and then a TaskCheckpoint v1 gets a
 * PolicyDecision (evaluate-v1.ts) and a GoalCheckpoint v2 a GoalDecision (goal-evaluate.ts). Any
 * failure, from reading a file to a signature, gives the fail-closed v1 envelope with
 * `evaluation_error:<reason>`; `policy evaluate` never exits 2.
 */
import { READ_CAPS } from "../core/fs/limits";
import { namedFileFailure, readRegularFileSync } from "../core/fs/named-file";
import type { HumanKeys } from "../memory/keys";
import { PyJsonSyntaxError, decodeUtf8Strict, parsePyJson } from "../memory/py-json";
import { type PolicyDecision, evaluateTaskV1Strict } from "./evaluate-v1";
import { type GoalDecision, evaluateGoalStrict } from "./goal-evaluate";
import { isGoalDocument, validateGoalCheckpoint, validateGoalPolicy } from "./goal-validate";
import { PolicyValidationError, pyStrip, validateCheckpoint, validatePolicy } from "./validate";

export * from "./evaluate-v1";
export type { GoalDecision, GoalScope } from "./goal-evaluate";

/** What `policy evaluate` prints: a PolicyDecision v1 (also the fail-closed envelope) or a GoalDecision v2. */
export type AnyDecision = PolicyDecision | GoalDecision;

/**
 * The harness's `evaluate_policy` on two documents: throws PolicyValidationError (or another
 * error) instead of failing closed.
 */
export function evaluatePolicyStrict(checkpointDocument: unknown, policyDocument: unknown, keys: HumanKeys | undefined): AnyDecision {
  // Both are validated, by their own version's rules, before the versions are compared.
  const goalCheckpoint = isGoalDocument(checkpointDocument) ? validateGoalCheckpoint(checkpointDocument) : null;
  if (!goalCheckpoint) validateCheckpoint(checkpointDocument);
  const goalPolicy = isGoalDocument(policyDocument) ? validateGoalPolicy(policyDocument) : null;
  if (!goalPolicy) validatePolicy(policyDocument);
  if (goalCheckpoint || goalPolicy) {
    if (!goalCheckpoint || !goalPolicy) throw new PolicyValidationError("checkpoint and policy versions must match");
    return evaluateGoalStrict(goalCheckpoint, goalPolicy, keys);
  }
  return evaluateTaskV1Strict(checkpointDocument, policyDocument, keys);
}

/** The result when inputs cannot be evaluated: stop, no spawn, no hash. */
export function failClosedDecision(policyId: string, reason: string): PolicyDecision {
  return {
    schema_version: 1,
    policy_id: policyId,
    policy_hash: null,
    decision: "stop",
    spawn_allowed: false,
    checkpoint_required: false,
    reasons: [`evaluation_error:${reason}`],
    effective_limits: {},
    observed_metrics: {},
  };
}

/** Python `pathlib.Path(p).stem`: the last component without its last suffix. */
export function pathStem(p: string): string {
  const parts = p.split(/[/]+/).filter((s) => s !== "" && s !== ".");
  const name = parts[parts.length - 1] ?? "";
  const i = name.lastIndexOf(".");
  return i > 0 && i < name.length - 1 ? name.slice(0, i) : name;
}

/** The policy_id of a fail-closed result: the policy file's base name, or "unreadable-policy". */
export function fallbackPolicyId(policyFileName: string | undefined): string {
  return (policyFileName !== undefined ? pyStrip(pathStem(policyFileName)) : "") || "unreadable-policy";
}

export interface EvaluateOptions {
  /** The server's human keys. */
  keys?: HumanKeys;
  /** Loads the keys inside the evaluation, so a key-loading error also fails closed. */
  loadKeys?: () => HumanKeys;
  /** The policy file's name or path, for the fail-closed policy_id. */
  policyFileName?: string;
}

function reasonOf(e: unknown): string {
  if (e instanceof Error) return e.message;
  return String(e);
}

/** Evaluates the documents; never throws: any failure is the fail-closed stop. */
export function evaluatePolicy(policyDocument: unknown, checkpointDocument: unknown, opts: EvaluateOptions = {}): AnyDecision {
  try {
    const keys = opts.loadKeys ? opts.loadKeys() : opts.keys;
    return evaluatePolicyStrict(checkpointDocument, policyDocument, keys);
  } catch (e) {
    return failClosedDecision(fallbackPolicyId(opts.policyFileName), reasonOf(e));
  }
}

/** Python's `str(Path(p))`: repeated slashes and `.` components folded. */
function pyPathStr(p: string): string {
  const abs = p.startsWith("/");
  const parts = p.split(/[/]+/).filter((s) => s !== "" && s !== ".");
  return (abs ? "/" : "") + parts.join("/") || (abs ? "/" : ".");
}

/** Python's errno numbers and texts for what reading a named file can meet. */
const ERRNO: Record<string, [number, string]> = {
  ENOENT: [2, "No such file or directory"],
  ENXIO: [6, "No such device or address"],
  EACCES: [13, "Permission denied"],
  ENOTDIR: [20, "Not a directory"],
  EISDIR: [21, "Is a directory"],
  ELOOP: [40, "Too many levels of symbolic links"],
};

/** A policy or checkpoint file is JSON of a few kilobytes; the cap of any JSON the Workbench reads. */
const MAX_JSON_BYTES = READ_CAPS.json;

/**
 * The harness's `load_json_object` on a file named by path (a command-line argument): a strict
 * JSON object, or PolicyValidationError in its wording. Only a regular file is read: a named
 * pipe, a device or a socket is refused at once (the harness would wait, or read forever).
 */
export function loadJsonObject(filePath: string): Record<string, unknown> {
  const shown = pyPathStr(filePath);
  let bytes: Buffer;
  try {
    bytes = readRegularFileSync(filePath, MAX_JSON_BYTES);
  } catch (e) {
    const f = namedFileFailure(e);
    if (!f) throw e;
    const errno = f.errno ? ERRNO[f.errno] : undefined;
    if (errno) throw new PolicyValidationError(`cannot read JSON object ${shown}: [Errno ${errno[0]}] ${errno[1]}: '${shown}'`);
    if (f.reason === "not_regular") throw new PolicyValidationError(`cannot read JSON object ${shown}: not a regular file (${f.special ?? "special file"}): '${shown}'`);
    if (f.reason === "too_large") throw new PolicyValidationError(`cannot read JSON object ${shown}: larger than ${MAX_JSON_BYTES} bytes: '${shown}'`);
    throw new PolicyValidationError(`cannot read JSON object ${shown}: [Errno 0] ${f.errno ?? "error"}: '${shown}'`);
  }
  return jsonObjectFromBytes(bytes, filePath);
}

/** `load_json_object` on bytes already read (`shownPath` names the file in messages). */
export function jsonObjectFromBytes(bytes: Uint8Array, shownPath: string): Record<string, unknown> {
  const shown = pyPathStr(shownPath);
  let text: string;
  try {
    text = decodeUtf8Strict(bytes);
  } catch {
    throw new PolicyValidationError(`cannot read JSON object ${shown}: 'utf-8' codec can't decode the file: invalid UTF-8`);
  }
  let value: unknown;
  try {
    // Python reads text files with universal newlines.
    value = parsePyJson(text.replace(/\r\n?/g, "\n"));
  } catch (e) {
    if (e instanceof PyJsonSyntaxError) {
      if (e.reason.startsWith("duplicate JSON key: ")) throw new PolicyValidationError(e.reason);
      throw new PolicyValidationError(`cannot read JSON object ${shown}: ${e.pythonMessage}`);
    }
    throw e;
  }
  if (value === null || typeof value !== "object" || Array.isArray(value) || !(Object.getPrototypeOf(value) === Object.prototype)) {
    throw new PolicyValidationError(`expected JSON object: ${shown}`);
  }
  return value as Record<string, unknown>;
}

/**
 * `agent-collab policy evaluate --policy P --checkpoint C`: reads the checkpoint, then the policy,
 * then the keys, and evaluates; any failure is the fail-closed stop named after the policy file.
 */
export function evaluatePolicyFiles(policyPath: string, checkpointPath: string, opts: { keys?: HumanKeys; loadKeys?: () => HumanKeys } = {}): AnyDecision {
  try {
    const checkpoint = loadJsonObject(checkpointPath);
    const policy = loadJsonObject(policyPath);
    const keys = opts.loadKeys ? opts.loadKeys() : opts.keys;
    return evaluatePolicyStrict(checkpoint, policy, keys);
  } catch (e) {
    return failClosedDecision(fallbackPolicyId(policyPath), reasonOf(e));
  }
}

/** Exit code of `policy evaluate`: 0 continue, 3 checkpoint, 4 stop (never 2). */
export function evaluateExitCode(d: Pick<PolicyDecision, "decision">): 0 | 3 | 4 {
  return d.decision === "stop" ? 4 : d.decision === "checkpoint" ? 3 : 0;
}
