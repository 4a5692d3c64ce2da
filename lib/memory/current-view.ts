/**
 * The current state of memory, derived without changing any event (FORMATS §4, reference
 * "Reading current state"): index the events, mark superseded ids, mark resolved questions, apply
 * lifecycle events as a view (archive and delete hide an event; nothing is removed), and report
 * conflicts, each naming the event ids involved.
 *
 * Events reference only older events: a `supersedes`, `resolves` or lifecycle `target_ref` that
 * points forward (or in a circle, as two events superseding each other) is a conflict and has no
 * effect, so the view never depends on which of two contradicting events is read first.
 *
 * Two events from different proposals carrying the same approval (actor, timestamp, rationale,
 * action hash) are a conflict too: the signature binds the action, not the proposal, so the
 * second is a signed decision replayed onto a copy of the proposal.
 *
 * Each event's approval hash is also checked against the action the event must have come from
 * (add: no target; supersede: one superseded target; lifecycle: archive or delete of its target),
 * which tells archive from delete and catches an event edited after its approval.
 */
import { actionHash } from "./proposal";
import type { MemoryEvent } from "./memory-file";

export type EventStatus = "current" | "superseded" | "resolved" | "archived" | "deleted";

export type ConflictKind =
  | "duplicate_id"
  | "non_monotonic_id"
  | "unknown_reference"
  | "self_reference"
  | "forward_reference"
  | "mutual_supersede"
  | "competing_supersede"
  | "resolves_non_question"
  | "resolves_from_non_resolution"
  | "lifecycle_without_target"
  | "duplicate_source_proposal"
  | "duplicate_approval"
  | "approval_hash_mismatch";

export interface ViewConflict {
  kind: ConflictKind;
  /** Every event id involved, the event stating the conflict first. */
  eventIds: string[];
  message: string;
}

export interface ViewEntry {
  event: MemoryEvent;
  /** Position in the log (0-based). */
  index: number;
  status: EventStatus;
  /** Later events that supersede this one (effective ones only). */
  supersededBy: string[];
  /** Resolution events that resolve this open question. */
  resolvedBy: string[];
  /** Lifecycle events acting on this event. */
  lifecycle: { eventId: string; kind: "archive" | "delete" | "unknown" }[];
  /** The operation the approval hash binds: add, supersede, archive, delete; null when none matches or none can be derived. */
  approvedOperation: "add" | "supersede" | "archive" | "delete" | null;
  /** match: the approval hash is the hash of the event's own action; mismatch; or not derivable from the event. */
  approvalCheck: "match" | "mismatch" | "not_derivable";
}

export interface CurrentView {
  entries: ViewEntry[];
  /** Events still current (not superseded, resolved, archived or deleted), in log order. */
  current: MemoryEvent[];
  /** Open questions not resolved and still current. */
  openQuestions: MemoryEvent[];
  conflicts: ViewConflict[];
}

function hashOf(op: string, target: string | null, e: MemoryEvent): string {
  return actionHash({ operation: op, target_ref: target, summary: e.summary, evidence_refs: e.evidence_refs });
}

function checkApproval(e: MemoryEvent): Pick<ViewEntry, "approvedOperation" | "approvalCheck"> {
  const want = e.approval.affected_action_hash;
  let candidates: { op: ViewEntry["approvedOperation"] & string; target: string | null }[];
  if (e.event_type === "lifecycle") {
    if (e.target_ref === null) return { approvedOperation: null, approvalCheck: "not_derivable" };
    candidates = [
      { op: "archive", target: e.target_ref },
      { op: "delete", target: e.target_ref },
    ];
  } else if (e.supersedes.length === 0 && e.resolves.length === 0 && e.target_ref === null) {
    candidates = [{ op: "add", target: null }];
  } else if (e.supersedes.length === 1 && e.resolves.length === 0 && (e.target_ref === null || e.target_ref === e.supersedes[0])) {
    candidates = [{ op: "supersede", target: e.supersedes[0]! }];
  } else {
    // A resolution or multi-supersede event has no single proposal action it must equal.
    return { approvedOperation: null, approvalCheck: "not_derivable" };
  }
  for (const c of candidates) if (hashOf(c.op, c.target, e) === want) return { approvedOperation: c.op, approvalCheck: "match" };
  return { approvedOperation: null, approvalCheck: "mismatch" };
}

export function buildCurrentView(events: readonly MemoryEvent[]): CurrentView {
  const conflicts: ViewConflict[] = [];
  const byId = new Map<string, number>();
  const entries: ViewEntry[] = events.map((event, index) => ({ event, index, status: "current", supersededBy: [], resolvedBy: [], lifecycle: [], ...checkApproval(event) }));

  // 1. Index. The first event with an id owns it; later duplicates are reported and ignored as targets.
  let maxNum = 0;
  const bySource = new Map<string, string>();
  const byApproval = new Map<string, MemoryEvent>();
  for (const en of entries) {
    const id = en.event.event_id;
    if (byId.has(id)) conflicts.push({ kind: "duplicate_id", eventIds: [id], message: `Event id ${id} is used more than once (positions ${byId.get(id)! + 1} and ${en.index + 1}); ids are never reused.` });
    else byId.set(id, en.index);
    const num = Number(id.slice(1));
    if (num <= maxNum && byId.get(id) === en.index) conflicts.push({ kind: "non_monotonic_id", eventIds: [id], message: `Event ${id} follows an event with a higher id; ids must increase.` });
    maxNum = Math.max(maxNum, num);
    const src = en.event.source_proposal_id;
    const prior = bySource.get(src);
    if (prior !== undefined) conflicts.push({ kind: "duplicate_source_proposal", eventIds: [id, prior], message: `Events ${prior} and ${id} both come from proposal ${src}; a proposal is applied once.` });
    else bySource.set(src, id);
    const a = en.event.approval;
    const approvalKey = JSON.stringify([a.actor, a.timestamp, a.rationale, a.affected_action_hash]);
    const first = byApproval.get(approvalKey);
    // Same proposal twice is already duplicate_source_proposal; report each problem once.
    if (first === undefined) byApproval.set(approvalKey, en.event);
    else if (first.source_proposal_id !== src) {
      conflicts.push({
        kind: "duplicate_approval",
        eventIds: [id, first.event_id],
        message: `Events ${first.event_id} and ${id} carry the same approval (${a.actor} at ${a.timestamp}) from different proposals; one signed approval applies one proposal, so ${id} is a replay.`,
      });
    }
    if (en.approvalCheck === "mismatch") {
      conflicts.push({ kind: "approval_hash_mismatch", eventIds: [id], message: `Event ${id}: its approval hash does not match the action its content implies; it may have been edited after approval.` });
    }
  }

  /** The referenced entry when the reference is valid (known, older, not itself); reports otherwise. */
  const target = (from: ViewEntry, ref: string, what: string): ViewEntry | null => {
    const id = from.event.event_id;
    const idx = byId.get(ref);
    if (idx === undefined) {
      conflicts.push({ kind: "unknown_reference", eventIds: [id, ref], message: `Event ${id} ${what} ${ref}, which does not exist.` });
      return null;
    }
    if (idx === from.index) {
      conflicts.push({ kind: "self_reference", eventIds: [id], message: `Event ${id} ${what} itself.` });
      return null;
    }
    if (idx > from.index) {
      const back = entries[idx]!;
      // Two events superseding each other are reported once, from the later event's side.
      if (what === "supersedes" && back.event.supersedes.includes(id)) return null;
      conflicts.push({ kind: "forward_reference", eventIds: [id, ref], message: `Event ${id} ${what} ${ref}, which comes after it; an event can only act on older events.` });
      return null;
    }
    return entries[idx]!;
  };

  // 2. Supersession (first pass: who supersedes whom; effective only for older targets).
  const supersedersOf = new Map<number, string[]>();
  for (const en of entries) {
    if (byId.get(en.event.event_id) !== en.index) continue;
    for (const ref of en.event.supersedes) {
      const t = target(en, ref, "supersedes");
      if (!t) continue;
      if (t.event.supersedes.includes(en.event.event_id)) {
        // The older event points forward at this one: a circle, reported once from this side.
        conflicts.push({ kind: "mutual_supersede", eventIds: [en.event.event_id, ref], message: `Events ${ref} and ${en.event.event_id} supersede each other; neither supersession is applied.` });
        continue;
      }
      const list = supersedersOf.get(t.index) ?? [];
      list.push(en.event.event_id);
      supersedersOf.set(t.index, list);
    }
  }
  for (const [idx, ids] of supersedersOf) {
    entries[idx]!.supersededBy = ids;
    entries[idx]!.status = "superseded";
    if (ids.length > 1) {
      conflicts.push({
        kind: "competing_supersede",
        eventIds: [entries[idx]!.event.event_id, ...ids],
        message: `Event ${entries[idx]!.event.event_id} is superseded by ${ids.join(" and ")}; they disagree on what replaces it.`,
      });
    }
  }

  // 3. Resolved questions.
  for (const en of entries) {
    if (byId.get(en.event.event_id) !== en.index || en.event.resolves.length === 0) continue;
    if (en.event.event_type !== "resolution") {
      conflicts.push({
        kind: "resolves_from_non_resolution",
        eventIds: [en.event.event_id, ...en.event.resolves],
        message: `Event ${en.event.event_id} is a ${en.event.event_type} event but lists resolves; only resolution events resolve questions.`,
      });
      continue;
    }
    for (const ref of en.event.resolves) {
      const t = target(en, ref, "resolves");
      if (!t) continue;
      if (t.event.event_type !== "open_question") {
        conflicts.push({ kind: "resolves_non_question", eventIds: [en.event.event_id, ref], message: `Event ${en.event.event_id} resolves ${ref}, which is a ${t.event.event_type}, not an open question.` });
        continue;
      }
      t.resolvedBy.push(en.event.event_id);
      if (t.status === "current") t.status = "resolved";
    }
  }

  // 4. Lifecycle as a view: archive / delete hide their target; delete wins over archive.
  for (const en of entries) {
    if (en.event.event_type !== "lifecycle" || byId.get(en.event.event_id) !== en.index) continue;
    const ref = en.event.target_ref;
    if (ref === null) {
      conflicts.push({ kind: "lifecycle_without_target", eventIds: [en.event.event_id], message: `Lifecycle event ${en.event.event_id} has no target_ref.` });
      continue;
    }
    const t = target(en, ref, "has lifecycle target");
    if (!t) continue;
    const kind = en.approvedOperation === "archive" || en.approvedOperation === "delete" ? en.approvedOperation : "unknown";
    t.lifecycle.push({ eventId: en.event.event_id, kind });
    // An unknown lifecycle kind still hides the target: it can only have been archive or delete.
    if (kind === "delete") t.status = "deleted";
    else if (t.status !== "deleted") t.status = "archived";
  }

  const current = entries.filter((e) => e.status === "current").map((e) => e.event);
  const openQuestions = entries.filter((e) => e.status === "current" && e.event.event_type === "open_question").map((e) => e.event);
  return { entries, current, openQuestions, conflicts };
}
