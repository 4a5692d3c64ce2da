/**
 * Applying an approved memory proposal (FORMATS §4; reference "Approval binding"): append exactly
 * one event to `.coord/memory.yml`. In order, any failure stopping everything and going back to
 * the human (nothing is repaired, rehashed or approved on their behalf):
 *
 *  1. re-read the proposal from disk (never trust a copy from a request) and validate it;
 *  2. recompute the action hash; it must equal the recorded approval's;
 *  3. the state must be approved (decline and revise never are);
 *  4. verify the decision's HMAC against the policy's pinned key;
 *  5. every evidence ref must still resolve;
 *  6. take the create-only lock `.coord/memory.yml.lock` (waiting briefly while a live holder
 *     has it, so applies of different proposals follow each other; a stale lock is refused);
 *  7. under the lock, refuse if an event already came from this proposal (so concurrent or
 *     repeated applies give one event) or already carries this very approval (actor, timestamp,
 *     rationale, action hash): the signature covers the action, not the proposal id, so a
 *     decision copied into a second proposal file with the same action verifies and would
 *     otherwise be applied twice; then check the target exists, append the event after the
 *     existing text and replace the file atomically (temp file, fsync, rename, folder fsync);
 *  8. release the lock, also on failure.
 *
 * Event mapping (the proposal action carries no event type; the approved bytes decide):
 * - add       -> `decision` (or `open_question` / `artifact` / `execution` when the caller says
 *                so: the sample's M2 is an open question added this way), target_ref null;
 * - supersede -> `decision` with supersedes [target_ref] and target_ref kept;
 * - archive, delete -> `lifecycle` with target_ref; which one is recoverable from the approval
 *                hash (see current-view.ts), so the event needs no extra field.
 * The event's rationale is the human's approval rationale: the proposal has no rationale of its own.
 */
import path from "node:path";
import { WorkbenchError, isWorkbenchError } from "../core/errors";
import { MAX_NESTING } from "../core/fs/limits";
import { jsonNestingDepth } from "../core/fs/nesting";
import { refusalError } from "../core/fs/refusal";
import { ProjectFs } from "../core/project-fs";
import { verifyRecord } from "./decision-record";
import { describeEvidenceProblems, allEvidencePresent, resolveEvidence } from "./evidence";
import { type HumanKeys, type KeyPinning } from "./keys";
import { LOCK_FILE, acquireLockWaiting } from "./lock";
import { MAX_MEMORY_BYTES, MEMORY_FILE, type MemoryDoc, type MemoryEvent, appendEventText, nextEventId, parseMemoryStrict, serializeMemory } from "./memory-file";
import { PROPOSAL_ID, type Proposal, actionHash, proposalRelPath, proposalSchema } from "./proposal";
import { parsePyJson } from "./py-json";
import { formatTimestamp } from "./timestamp";

/** An apply holds the lock for milliseconds; longer than this, the holder is stuck or slow. */
const DEFAULT_LOCK_WAIT_MS = 2000;

export type AddEventType = "decision" | "open_question" | "artifact" | "execution";

export interface ApplyOptions {
  keys: HumanKeys | undefined;
  /** The project's policy (its pinned key hashes decide whose approval counts). */
  policy: KeyPinning;
  /** Who appends the event (default: the approving human, `human:<key_id>`). */
  actor?: string;
  now?: Date;
  /** Task recorded in the lock file. */
  taskId: string;
  /** Event type for an `add` (default decision); ignored for other operations. */
  eventType?: AddEventType;
  /** Project slug when memory.yml does not exist yet (default: the folder name). */
  project?: string;
  /** How long to wait for a live holder of the memory lock before refusing (default 2 s). */
  lockWaitMs?: number;
  /** Test seams: called after the lock is taken / after the temp file is written, before rename. */
  hooks?: { afterLock?: () => void; beforeRename?: () => void };
}

export interface ApplyResult {
  event: MemoryEvent;
  /** Absolute path of memory.yml. */
  memoryPath: string;
}

/** The proposal as stored, validated; GATE_REFUSED / NOT_FOUND / UNREADABLE otherwise. */
export async function readProposal(pfs: ProjectFs, proposalId: string): Promise<Proposal> {
  if (!PROPOSAL_ID.test(proposalId)) throw new WorkbenchError("INVALID_INPUT", `"${proposalId}" is not a proposal id (a lowercase UUID).`);
  const rel = proposalRelPath(proposalId);
  const text = await pfs.readText(rel, { kind: "json" });
  if (jsonNestingDepth(text, MAX_NESTING) > MAX_NESTING) throw refusalError("too_deep", `${rel}: nested deeper than ${MAX_NESTING} levels; not read.`);
  let raw: unknown;
  try {
    raw = parsePyJson(text);
  } catch (e) {
    throw new WorkbenchError("UNREADABLE", `${rel}: not valid JSON (${e instanceof Error ? e.message : String(e)}).`);
  }
  const r = proposalSchema.safeParse(raw);
  if (!r.success) {
    const i = r.error.issues[0]!;
    throw new WorkbenchError("UNREADABLE", `${rel}: field "${i.path.join(".") || "(root)"}": ${i.message}`, { issues: r.error.issues });
  }
  if (r.data.proposal_id !== proposalId) throw new WorkbenchError("UNREADABLE", `${rel}: proposal_id ${r.data.proposal_id} does not match the file name.`);
  return r.data;
}

function eventFor(p: Proposal, id: string, opts: ApplyOptions): MemoryEvent {
  const d = p.decision!;
  const op = p.action.operation;
  const type = op === "add" ? (opts.eventType ?? "decision") : op === "supersede" ? "decision" : "lifecycle";
  return {
    event_id: id,
    event_type: type,
    created_at: formatTimestamp(opts.now ?? new Date()),
    actor: opts.actor ?? d.actor,
    summary: p.action.summary,
    rationale: d.rationale,
    evidence_refs: [...p.action.evidence_refs],
    supersedes: op === "supersede" ? [p.action.target_ref!] : [],
    resolves: [],
    target_ref: p.action.target_ref,
    source_proposal_id: p.proposal_id,
    approval: { actor: d.actor, decision: "approve", timestamp: d.timestamp, rationale: d.rationale, affected_action_hash: d.affected_action_hash },
  };
}

/** The fields of an event's approval that the signature binds, all equal: the same human act. */
function sameApproval(a: MemoryEvent["approval"], d: NonNullable<Proposal["decision"]>): boolean {
  return a.actor === d.actor && a.timestamp === d.timestamp && a.rationale === d.rationale && a.affected_action_hash === d.affected_action_hash;
}

/** memory.yml's text, or null when there is none yet. */
async function readMemoryText(pfs: ProjectFs): Promise<string | null> {
  try {
    return await pfs.readText(MEMORY_FILE, { kind: "yaml", maxBytes: MAX_MEMORY_BYTES });
  } catch (e) {
    if (isWorkbenchError(e) && e.code === "NOT_FOUND") return null;
    throw e;
  }
}

export async function applyProposal(projectRoot: string, proposalId: string, opts: ApplyOptions): Promise<ApplyResult> {
  if (opts.eventType && !["decision", "open_question", "artifact", "execution"].includes(opts.eventType)) {
    throw new WorkbenchError("INVALID_INPUT", `An add cannot become a ${opts.eventType} event.`);
  }
  const pfs = await ProjectFs.open(projectRoot);
  const proposal = await readProposal(pfs, proposalId);
  const rel = proposalRelPath(proposalId);

  const hash = actionHash(proposal.action);
  if (!proposal.decision) throw new WorkbenchError("GATE_REFUSED", `${rel} has no recorded decision; only an approved proposal is applied.`);
  if (proposal.decision.affected_action_hash !== hash) {
    throw new WorkbenchError("GATE_REFUSED", `${rel}: the action changed after the decision (hash ${hash}, approved ${proposal.decision.affected_action_hash}).`);
  }
  if (proposal.state !== "approved" || proposal.decision.decision !== "approve") {
    throw new WorkbenchError("GATE_REFUSED", `${rel} is ${proposal.state} (decision ${proposal.decision.decision}); only an approval is applied.`);
  }
  const v = verifyRecord(proposal.decision, opts.policy, opts.keys, { expectedActionHash: hash, label: `${rel} decision` });
  if (!v.ok) throw new WorkbenchError("GATE_REFUSED", v.failures.map((f) => f.message).join("; "), { failures: v.failures });
  const evidence = await resolveEvidence(pfs, proposal.action.evidence_refs);
  if (!allEvidencePresent(evidence)) throw new WorkbenchError("GATE_REFUSED", `Evidence does not resolve: ${describeEvidenceProblems(evidence)}.`, { evidence });

  if (!(await pfs.isDir(".coord"))) throw new WorkbenchError("NOT_FOUND", "The project has no .coord folder.");
  // Where the lock and the log are written: in `.coord` as a real folder inside the project, and
  // memory.yml itself, never through a link (the rename would replace the link, not its target).
  const memoryPath = pfs.writablePathSync(MEMORY_FILE);

  const lock = await acquireLockWaiting(pfs, LOCK_FILE, { taskId: opts.taskId, proposalId, now: opts.now, waitMs: opts.lockWaitMs ?? DEFAULT_LOCK_WAIT_MS });
  try {
    opts.hooks?.afterLock?.();
    const text = await readMemoryText(pfs);
    let doc: MemoryDoc;
    if (text === null) {
      doc = { schema_version: 2, project: opts.project ?? path.basename(pfs.root), created_at: formatTimestamp(opts.now ?? new Date()), events: [] };
    } else {
      doc = parseMemoryStrict(text);
    }
    const prior = doc.events.find((e) => e.source_proposal_id === proposalId);
    if (prior) throw new WorkbenchError("CONFLICT", `Proposal ${proposalId} was already applied as ${prior.event_id}; it is applied once.`);
    const reused = doc.events.find((e) => sameApproval(e.approval, proposal.decision!));
    if (reused) {
      throw new WorkbenchError(
        "CONFLICT",
        `${rel}: approval already used by ${reused.event_id} (from proposal ${reused.source_proposal_id}); one signed approval applies one proposal, once. This file carries a copied decision.`,
      );
    }
    const target = proposal.action.target_ref;
    if (target !== null && !doc.events.some((e) => e.event_id === target)) {
      throw new WorkbenchError("GATE_REFUSED", `The proposal's target ${target} is not an event in ${MEMORY_FILE}.`);
    }
    const event = eventFor(proposal, nextEventId(doc.events), opts);
    const next = text === null ? serializeMemory({ ...doc, events: [event] }) : appendEventText(text, event);
    pfs
      .prepareWriteSync(MEMORY_FILE, (write) => {
        write(next);
        opts.hooks?.beforeRename?.();
      })
      .commit();
    return { event, memoryPath };
  } finally {
    lock.release();
  }
}
