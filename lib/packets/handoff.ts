/**
 * The stable handoff URL's answer (`GET /api/v1/packets/:id`): the revision an editor emitted,
 * as seed 001 hands a packet off only at EMIT, after its smell tests and, here, a person's
 * approval. A packet that exists but was never emitted answers its review state and what
 * would make it emitted (NOT_EMITTED, 409), never "not found".
 */
import { WorkbenchError } from "../core/errors";
import { getPacket, getRevision, packetProject, type PacketDto } from "../db/repositories/packets";
import { validatePacket, type ValidationResult } from "./index";

export interface Handoff {
  packet: PacketDto;
  revision: number;
  markdown: string;
  result: Pick<ValidationResult, "packet" | "token_estimate" | "completeness" | "warnings">;
}

/** Where a never-emitted packet stands, and who does what next, in words an agent or a person can act on. */
export function notEmittedMessage(p: Pick<PacketDto, "id" | "projectId" | "reviewStatus" | "headNumber" | "approvedNumber">): string {
  const approved = p.approvedNumber;
  const state = `review status: ${p.reviewStatus}, latest revision ${p.headNumber}${approved === null ? "" : `, approved revision ${approved}`}`;
  const emit = `an editor emits it (Emit on the packet's page, or POST /api/v1/projects/${p.projectId}/packets/${p.id}/emit), and this URL serves the emitted revision from then on`;
  let next: string;
  if (approved !== null) next = `Revision ${approved} is approved and can be handed off: ${emit}.`;
  else if (p.reviewStatus === "in_review") next = `Revision ${p.headNumber} waits for a reviewer's decision; once it is approved, ${emit}.`;
  else if (p.reviewStatus === "changes_requested") next = `A reviewer requested changes: revise it and request a review again; once it is approved, ${emit}.`;
  else next = `Nobody has approved it yet: request a review; once it is approved, ${emit}.`;
  return `Packet ${p.id} exists but has not been emitted for handoff (${state}). ${next}`;
}

/** The emitted revision of a packet, with the seed's result object; NOT_FOUND only when no such packet exists. */
export async function handoffPacket(id: string): Promise<Handoff> {
  const projectId = await packetProject(id);
  const p = await getPacket(projectId, id);
  if (p.emittedNumber === null) throw new WorkbenchError("NOT_EMITTED", notEmittedMessage(p));
  const rev = await getRevision(projectId, id, p.emittedNumber);
  const v = validatePacket(rev.markdown, { taskTokens: rev.taskTokens });
  return { packet: p, revision: rev.number, markdown: rev.markdown, result: { packet: v.packet, token_estimate: v.token_estimate, completeness: v.completeness, warnings: v.warnings } };
}
