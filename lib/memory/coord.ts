/**
 * Everything in a project's `.coord/` folder, each file read through ProjectFs (never outside
 * the project) and validated on its own: a broken file becomes entries in `errors` (file, field,
 * line, message) and the rest is still returned. Nothing here writes.
 *
 * Read: memory-proposals/*.json, memory.yml (with its current view), checkpoints/*.json
 * (TaskCheckpoint v1 and GoalCheckpoint v2; also a lone checkpoint.json), policy.json and
 * *.policy.json (v1, portable v1 or goal policy v2), context_NNN.md packets, session_primer.md, the memory lock and any proposal lock
 * (`<id>.json.lock`) or gate decision lock (`<checkpoint>.json.lock`), each also a warning: outside
 * a decision in progress it is a crash's leftover.
 *
 * The folder is hostile input like the rest of the repository: a file the file layer refuses (a
 * link out of the project, whose content is never read; a named pipe; a binary file; one too
 * large or nested too deep) becomes an issue naming it and why, and the other files are still read.
 */
import { findNodeAtLocation, parseTree } from "jsonc-parser";
import type { z } from "zod";
import { isWorkbenchError } from "../core/errors";
import { MAX_NESTING } from "../core/fs/limits";
import { jsonNestingDepth } from "../core/fs/nesting";
import { refusalOf } from "../core/fs/refusal";
import { ProjectFs, type ReadLimit } from "../core/project-fs";
import type { WarningSink } from "../core/warnings";
import { goalCheckpointV2Schema, goalPolicyV2Schema, policyV1Schema, portablePolicySchema, taskCheckpointV1Schema } from "../policy/schemas";
import { type ValidGoalPolicy, isGoalDocument, validateGoalCheckpoint, validateGoalPolicy } from "../policy/goal-validate";
import { type NormalizedPolicy, validateCheckpoint, validatePolicy } from "../policy/validate";
import { recordedActors } from "./actors";
import { canonicalSha256 } from "./canonical-json";
import type { CoordCheckpoint, CoordLock, CoordMemory, CoordPolicy, CoordProposal, CoordSnapshot } from "./coord-types";
import { PACKET_FILE, PRIMER_FILE, parseContextPacket, parsePrimer } from "./coord-packets";
import { buildCurrentView } from "./current-view";
import { verifyRecord } from "./decision-record";
import { resolveEvidence } from "./evidence";
import { type CoordIssue, fieldName } from "./issues";
import type { HumanKeys } from "./keys";
import { LOCK_FILE, type LockStatus, describeLock, readLockStatus } from "./lock";
import { MAX_MEMORY_BYTES, MEMORY_FILE, type MemoryEvent, parseMemoryText } from "./memory-file";
import { PROPOSALS_DIR, actionHash, proposalSchema } from "./proposal";
import { PyJsonSyntaxError, parsePyJson } from "./py-json";

export type { CoordCheckpoint, CoordLock, CoordMemory, CoordPolicy, CoordProposal, CoordSnapshot } from "./coord-types";

const COORD = ".coord";

/** Each file the file layer refuses, as an issue naming it and the reason (invalid UTF-8 is read, with a warning). */
function issueSink(errors: CoordIssue[]): WarningSink {
  return (w) => errors.push({ file: w.relPath, message: w.message, reason: w.code, ...(w.code === "invalid_utf8" ? { severity: "warning" as const } : {}) });
}

const LIMIT = { json: { kind: "json" }, markdown: { kind: "markdown" } } as const satisfies Record<string, ReadLimit>;
const MEMORY_LIMIT: ReadLimit = { kind: "yaml", maxBytes: MAX_MEMORY_BYTES };

/** Text of a file, or null after recording why it could not be read (a refusal is already an issue, from the sink). */
async function readText(pfs: ProjectFs, rel: string, limit: ReadLimit, errors: CoordIssue[]): Promise<string | null> {
  try {
    return await pfs.readText(rel, limit);
  } catch (e) {
    if (isWorkbenchError(e)) {
      if (e.code === "NOT_FOUND" || refusalOf(e)) return null;
      errors.push({ file: rel, message: e.message });
      return null;
    }
    throw e;
  }
}

/** JSON with Python's rules (duplicate keys, ints vs floats); null after recording the fault with its line. */
function parseJson(text: string, rel: string, errors: CoordIssue[]): unknown {
  // Parsing, schema checks, line lookup and hashing all recurse per level: deep text is refused first.
  if (jsonNestingDepth(text, MAX_NESTING) > MAX_NESTING) {
    errors.push({ file: rel, reason: "too_deep", message: `${rel}: nested deeper than ${MAX_NESTING} levels; not read.` });
    return undefined;
  }
  try {
    return parsePyJson(text);
  } catch (e) {
    if (e instanceof PyJsonSyntaxError) {
      errors.push({ file: rel, line: e.line, message: `${rel}: not valid JSON at line ${e.line}, column ${e.column} (${e.reason})` });
      return undefined;
    }
    throw e;
  }
}

/** A lock's status, or null (none there, or unreadable: then an issue says why). */
function lockOrIssue(pfs: ProjectFs, rel: string, now: Date | undefined, errors: CoordIssue[]): LockStatus | null {
  try {
    return readLockStatus(pfs, rel, { now });
  } catch (e) {
    if (isWorkbenchError(e)) {
      if (!refusalOf(e)) errors.push({ file: rel, message: `${rel}: the lock cannot be read (${e.message})` });
      return null;
    }
    throw e;
  }
}

/** Line of a JSON field (or of the nearest enclosing value that exists). */
function jsonLine(text: string, path: readonly PropertyKey[]): number | undefined {
  const tree = parseTree(text);
  if (!tree) return undefined;
  for (let n = path.length; n >= 0; n--) {
    const node = findNodeAtLocation(
      tree,
      path.slice(0, n).map((p) => (typeof p === "number" ? p : String(p))),
    );
    if (node) {
      // For an object property, point at its key.
      const at = node.parent?.type === "property" ? node.parent.offset : node.offset;
      return text.slice(0, at).split("\n").length;
    }
  }
  return undefined;
}

function schemaIssues(schema: z.ZodType, value: unknown, text: string, rel: string, errors: CoordIssue[]): boolean {
  const r = schema.safeParse(value);
  if (r.success) return true;
  for (const i of r.error.issues) {
    const field = fieldName(i.path);
    const line = jsonLine(text, i.path);
    errors.push({ file: rel, ...(field ? { field } : {}), ...(line !== undefined ? { line } : {}), message: `${rel}${line !== undefined ? `:${line}` : ""}: ${field ? `field "${field}": ` : ""}${i.message}` });
  }
  return false;
}

/** A fault the harness's own validator finds that the schema does not (it strips whitespace, etc.). */
function referenceIssue(check: () => unknown, rel: string, errors: CoordIssue[]): boolean {
  try {
    check();
    return true;
  } catch (e) {
    errors.push({ file: rel, message: `${rel}: ${e instanceof Error ? e.message : String(e)}` });
    return false;
  }
}

async function listFiles(pfs: ProjectFs, dir: string): Promise<string[]> {
  return (await pfs.list(dir)).filter((e) => !e.isDir).map((e) => e.name);
}

async function readPolicies(pfs: ProjectFs, names: string[], errors: CoordIssue[]): Promise<CoordPolicy[]> {
  const out: CoordPolicy[] = [];
  for (const name of names.filter((n) => n === "policy.json" || n.endsWith(".policy.json"))) {
    const rel = `${COORD}/${name}`;
    const text = await readText(pfs, rel, LIMIT.json, errors);
    if (text === null) continue;
    const raw = parseJson(text, rel, errors);
    if (raw === undefined) continue;
    if (isGoalDocument(raw)) {
      // A goal policy is held to its own rules: its v1 field errors would only mislead.
      if (!schemaIssues(goalPolicyV2Schema, raw, text, rel, errors)) continue;
      let goal: ValidGoalPolicy | null = null;
      if (!referenceIssue(() => (goal = validateGoalPolicy(raw)), rel, errors) || !goal) continue;
      const g: ValidGoalPolicy = goal;
      out.push({ file: rel, form: "goal", policy: g.base, goal: g, policyId: g.policy_id, policyHash: canonicalSha256(raw), document: raw });
      continue;
    }
    const portable = raw !== null && typeof raw === "object" && !Array.isArray(raw) && "version" in raw && !("schema_version" in raw);
    if (!schemaIssues(portable ? portablePolicySchema : policyV1Schema, raw, text, rel, errors)) continue;
    let policy: NormalizedPolicy | null = null;
    if (!referenceIssue(() => (policy = validatePolicy(raw)), rel, errors) || !policy) continue;
    const p: NormalizedPolicy = policy;
    out.push({ file: rel, form: p.form, policy: p, goal: null, policyId: p.policy_id, policyHash: canonicalSha256(raw), document: raw });
  }
  return out;
}

async function readCheckpoints(pfs: ProjectFs, rels: string[], errors: CoordIssue[]): Promise<CoordCheckpoint[]> {
  const out: CoordCheckpoint[] = [];
  for (const rel of rels) {
    const text = await readText(pfs, rel, LIMIT.json, errors);
    if (text === null) continue;
    const raw = parseJson(text, rel, errors);
    if (raw === undefined) continue;
    const version = raw !== null && typeof raw === "object" && !Array.isArray(raw) ? (raw as { schema_version?: unknown }).schema_version : undefined;
    if (version === 2) {
      if (schemaIssues(goalCheckpointV2Schema, raw, text, rel, errors) && referenceIssue(() => validateGoalCheckpoint(raw), rel, errors)) {
        out.push({ file: rel, version: 2, checkpoint: goalCheckpointV2Schema.parse(raw), document: raw });
      }
    } else if (version === 1) {
      if (schemaIssues(taskCheckpointV1Schema, raw, text, rel, errors) && referenceIssue(() => validateCheckpoint(raw), rel, errors)) {
        out.push({ file: rel, version: 1, checkpoint: taskCheckpointV1Schema.parse(raw), document: raw });
      }
    } else {
      errors.push({ file: rel, field: "schema_version", line: jsonLine(text, ["schema_version"]), message: `${rel}: field "schema_version": must be 1 (TaskCheckpoint) or 2 (GoalCheckpoint)` });
    }
  }
  return out;
}

async function readProposals(
  pfs: ProjectFs,
  events: MemoryEvent[],
  policy: NormalizedPolicy | null,
  keys: HumanKeys | undefined,
  errors: CoordIssue[],
  locks: CoordLock[],
  now: Date | undefined,
): Promise<CoordProposal[]> {
  const out: CoordProposal[] = [];
  for (const name of await listFiles(pfs, PROPOSALS_DIR)) {
    const rel = `${PROPOSALS_DIR}/${name}`;
    // A decision being recorded right now (its lock) or cut off by a crash (the temp file of the
    // proposal or of its lock).
    if (/\.json(\.lock)?\.tmp\./.test(name)) continue;
    if (name.endsWith(".json.lock")) {
      const status = lockOrIssue(pfs, rel, now, errors);
      if (status) {
        locks.push({ file: rel, status });
        errors.push({ file: rel, message: `${rel}: a decision on this proposal is being recorded or was cut off; the lock is ${describeLock(status)}`, severity: "warning" });
      }
      continue;
    }
    if (!name.endsWith(".json")) {
      errors.push({ file: rel, message: `${rel}: not a proposal file (proposals are <proposal_id>.json)`, severity: "warning" });
      continue;
    }
    const text = await readText(pfs, rel, LIMIT.json, errors);
    if (text === null) continue;
    const raw = parseJson(text, rel, errors);
    if (raw === undefined) continue;
    if (!schemaIssues(proposalSchema, raw, text, rel, errors)) continue;
    const proposal = proposalSchema.parse(raw);
    if (name !== `${proposal.proposal_id}.json`) {
      const line = jsonLine(text, ["proposal_id"]);
      errors.push({ file: rel, field: "proposal_id", ...(line ? { line } : {}), message: `${rel}${line ? `:${line}` : ""}: field "proposal_id": ${proposal.proposal_id} does not match the file name` });
    }
    const target = proposal.action.target_ref;
    if (target !== null && !events.some((e) => e.event_id === target)) {
      const line = jsonLine(text, ["action", "target_ref"]);
      errors.push({
        file: rel,
        field: "action.target_ref",
        ...(line ? { line } : {}),
        message: `${rel}${line ? `:${line}` : ""}: field "action.target_ref": ${target} is not an event in ${MEMORY_FILE}`,
        severity: "warning",
      });
    }
    const hash = actionHash(proposal.action);
    const verification = proposal.decision && policy && keys ? verifyRecord(proposal.decision, policy, keys, { expectedActionHash: hash, label: `${rel} decision` }) : null;
    out.push({
      file: rel,
      proposal,
      actionHash: hash,
      evidence: await resolveEvidence(pfs, proposal.action.evidence_refs),
      appliedAs: events.find((e) => e.source_proposal_id === proposal.proposal_id)?.event_id ?? null,
      verification,
      replayedWith: [],
    });
  }
  markReplayed(out, errors);
  return out;
}

/** Proposals sharing one decision signature: each gets the others' files and a warning naming them. */
function markReplayed(proposals: CoordProposal[], errors: CoordIssue[]): void {
  const bySignature = new Map<string, CoordProposal[]>();
  for (const p of proposals) {
    const sig = p.proposal.decision?.authorization.signature;
    if (sig === undefined) continue;
    bySignature.set(sig, [...(bySignature.get(sig) ?? []), p]);
  }
  for (const group of bySignature.values()) {
    if (group.length < 2) continue;
    for (const p of group) {
      p.replayedWith = group.filter((o) => o !== p).map((o) => o.file);
      errors.push({
        file: p.file,
        field: "decision.authorization.signature",
        message: `${p.file}: its decision's signature is also on ${p.replayedWith.join(", ")}; a signed approval belongs to one proposal, so this one is treated as replayed and is neither decided nor applied here`,
        severity: "warning",
      });
    }
  }
}

async function readMemory(pfs: ProjectFs, errors: CoordIssue[]): Promise<CoordMemory | null> {
  const memText = await readText(pfs, MEMORY_FILE, MEMORY_LIMIT, errors);
  if (memText === null) return null;
  const parsed = parseMemoryText(memText, MEMORY_FILE);
  errors.push(...parsed.errors);
  return { file: MEMORY_FILE, header: parsed.header, events: parsed.events, view: buildCurrentView(parsed.events) };
}

/** `.coord/memory.yml` alone, read and validated as readCoord reads it (the search index needs nothing else). */
export async function readCoordMemory(projectRoot: string): Promise<{ memory: CoordMemory | null; errors: CoordIssue[] }> {
  const errors: CoordIssue[] = [];
  const pfs = await ProjectFs.open(projectRoot, { onSkip: issueSink(errors) });
  return { memory: await readMemory(pfs, errors), errors };
}

/** Reads and validates every `.coord/` file of a project. `keys` enables signature checks. */
export async function readCoord(projectRoot: string, opts: { keys?: HumanKeys; now?: Date } = {}): Promise<CoordSnapshot> {
  const errors: CoordIssue[] = [];
  const pfs = await ProjectFs.open(projectRoot, { onSkip: issueSink(errors) });
  const snap: CoordSnapshot = { root: pfs.root, proposals: [], memory: null, checkpoints: [], policies: [], packets: [], primer: null, lock: null, proposalLocks: [], errors };
  if (!(await pfs.isDir(COORD))) return snap;
  const top = await listFiles(pfs, COORD);

  for (const name of top.filter((n) => n.startsWith("memory.yml.tmp."))) {
    errors.push({ file: `${COORD}/${name}`, message: `${COORD}/${name}: left over from an interrupted write of memory.yml (which is intact); it can be deleted.`, severity: "warning" });
  }
  snap.memory = await readMemory(pfs, errors);

  snap.policies = await readPolicies(pfs, top, errors);
  const checkpointNames = await listFiles(pfs, `${COORD}/checkpoints`);
  const checkpointFiles = checkpointNames.filter((n) => n.endsWith(".json")).map((n) => `${COORD}/checkpoints/${n}`);
  if (top.includes("checkpoint.json")) checkpointFiles.unshift(`${COORD}/checkpoint.json`);
  snap.checkpoints = await readCheckpoints(pfs, checkpointFiles, errors);
  // A gate decision being recorded now, or cut off by a crash: listed with the proposals' locks, so it can be seen and removed.
  const checkpointLocks = checkpointNames.filter((n) => n.endsWith(".json.lock")).map((n) => `${COORD}/checkpoints/${n}`);
  if (top.includes("checkpoint.json.lock")) checkpointLocks.unshift(`${COORD}/checkpoint.json.lock`);
  for (const rel of checkpointLocks) {
    const status = lockOrIssue(pfs, rel, opts.now, errors);
    if (!status) continue;
    snap.proposalLocks.push({ file: rel, status });
    errors.push({ file: rel, message: `${rel}: a gate decision on this checkpoint is being recorded or was cut off; the lock is ${describeLock(status)}`, severity: "warning" });
  }

  const mainPolicy = snap.policies.find((p) => p.file === `${COORD}/policy.json`) ?? snap.policies[0] ?? null;
  snap.proposals = await readProposals(pfs, snap.memory?.events ?? [], mainPolicy?.policy ?? null, opts.keys, errors, snap.proposalLocks, opts.now);

  const actors = recordedActors(snap);
  for (const name of top) {
    const m = PACKET_FILE.exec(name);
    if (!m) continue;
    const rel = `${COORD}/${name}`;
    const text = await readText(pfs, rel, LIMIT.markdown, errors);
    if (text === null) continue;
    const { packet, issues } = parseContextPacket(text, rel, Number(m[1]), { actors });
    errors.push(...issues);
    const ref = packet.policyRef?.replace(/^\.\//, "");
    const policy = ref ? snap.policies.find((p) => p.file === ref) : undefined;
    if (policy && packet.policyHash && packet.policyHash !== policy.policyHash) {
      errors.push({ file: rel, field: "Policy.policy_hash", message: `${rel}: policy_hash does not match ${policy.file} (the policy changed after the packet was written)`, severity: "warning" });
    }
    snap.packets.push(packet);
  }

  const primerText = await readText(pfs, PRIMER_FILE, LIMIT.markdown, errors);
  if (primerText !== null) {
    const { primer, issues } = parsePrimer(primerText, PRIMER_FILE, { actors });
    errors.push(...issues);
    snap.primer = primer;
  }

  snap.lock = lockOrIssue(pfs, LOCK_FILE, opts.now, errors);
  return snap;
}
