/**
 * Packets of a project: create (from a template or an imported file), save revisions with
 * what validation said, duplicate, archive, emit for handoff, diff revisions. Every save
 * and every emit validates the markdown on the server, whatever the browser showed.
 */
import { structuredPatch } from "diff";
import { z } from "zod";
import { writePacketSearch } from "../search/sync";
import { WorkbenchError } from "../core/errors";
import { getProjectHead } from "../db/repositories/projects";
import type { AgentStamp } from "../db/dto";
import { createPacket, getPacket, getRevision, listPackets, listRevisions, markEmitted, saveRevision, updatePacketMeta, type PacketDerived, type PacketDto, type RevisionCheck } from "../db/repositories/packets";
import { statusAfterSave, type ReviewStatus } from "../collab/review";
import { BRIEF_TEMPLATE, PACKET_TEMPLATE, parsePacket, validatePacket, type ValidationResult } from "./index";
import { metaInput, newPacketInput, saveInput, validatePacketInput, type NewPacketInput } from "./schemas";
import { titleFollowsText, titleFromText } from "./title";

export { MAX_PACKET_CHARS, metaInput, newPacketInput, saveInput, type NewPacketInput } from "./schemas";
export { packetProject } from "../db/repositories/packets";

function checkOf(v: ValidationResult): RevisionCheck {
  return {
    tokenEstimate: v.token_estimate,
    completeness: v.completeness,
    blockCount: v.findings.filter((f) => f.tier === "BLOCK").length,
    warnCount: v.findings.filter((f) => f.tier === "WARN").length,
  };
}

/**
 * The packet's search entry, written in the transaction that writes the packet: a process
 * killed after the packet's commit can no longer leave the search describing the packet as it
 * was (a failure to write the entry now fails the write, as any other of its statements would).
 */
const searchEntry =
  (projectId: string): PacketDerived =>
  (tx, packet) =>
    writePacketSearch(tx, projectId, packet);

/**
 * The checks on markdown that is not stored (the editor's draft, a file an agent holds):
 * what `workbench pack validate --json` prints and the MCP tool returns, from the same
 * validator, so every surface gives the same verdict.
 */
export function validatePacketText(raw: z.input<typeof validatePacketInput>): ValidationResult {
  const input = validatePacketInput.parse(raw);
  return validatePacket(input.markdown, { taskTokens: input.taskTokens });
}

/** A new packet; `agent` is the MCP caller it is drafted for, when an agent drafts it. */
export async function createProjectPacket(projectId: string, raw: NewPacketInput, agent?: AgentStamp | null): Promise<PacketDto> {
  const input = newPacketInput.parse(raw);
  await getProjectHead(projectId);
  const text = input.markdown ?? (input.kind === "brief" ? BRIEF_TEMPLATE : PACKET_TEMPLATE);
  // An imported file decides its own kind by its heading.
  const kind = input.markdown !== undefined ? parsePacket(text).kind : input.kind;
  const taskTokens = input.taskTokens ?? null;
  return createPacket(
    {
      projectId,
      kind,
      title: input.title ?? titleFromText(text, kind),
      topicSlug: input.topicSlug,
      markdown: text,
      taskTokens,
      check: checkOf(validatePacket(text, { taskTokens })),
      author: input.author,
      agent,
    },
    searchEntry(projectId),
  );
}

export async function saveProjectPacket(projectId: string, id: string, raw: z.input<typeof saveInput>, agent?: AgentStamp | null): Promise<{ packet: PacketDto; validation: ValidationResult }> {
  const input = saveInput.parse(raw);
  const head = await getPacket(projectId, id);
  const baseNumber = input.baseNumber ?? head.headNumber;
  // A save that says nothing about the task size keeps the one the packet was checked with.
  const taskTokens = input.taskTokens === undefined ? head.taskTokens : input.taskTokens;
  const validation = validatePacket(input.markdown, { taskTokens });
  // Until someone renames it, a packet is called what its Task (or Summary) line says.
  const title = titleFollowsText(head.title, head.markdown, head.kind) ? titleFromText(input.markdown, head.kind) : undefined;
  const packet = await saveRevision(
    projectId,
    id,
    { markdown: input.markdown, taskTokens, check: checkOf(validation), author: input.author, note: input.note, baseNumber, agent, title },
    (s) => statusAfterSave(s as ReviewStatus),
    searchEntry(projectId),
  );
  return { packet, validation };
}

export async function duplicateProjectPacket(projectId: string, id: string, by: string | null): Promise<PacketDto> {
  const p = await getPacket(projectId, id);
  const taskTokens = p.taskTokens;
  return createPacket(
    {
      projectId,
      kind: p.kind,
      title: `Copy of ${p.title}`.slice(0, 200),
      topicSlug: p.topicSlug,
      markdown: p.markdown,
      taskTokens,
      check: checkOf(validatePacket(p.markdown, { taskTokens })),
      author: by,
    },
    searchEntry(projectId),
  );
}

export async function updateProjectPacket(projectId: string, id: string, raw: z.input<typeof metaInput>): Promise<PacketDto> {
  return updatePacketMeta(projectId, id, metaInput.parse(raw), searchEntry(projectId));
}

/**
 * Emits the approved revision for handoff: refused until a revision has been approved in
 * review, and while any BLOCK finding stands in it (the seed's HARD-GATE) with the task
 * size saved with it, so agents only ever receive a packet people approved and the checks passed.
 */
export async function emitProjectPacket(projectId: string, id: string): Promise<{ packet: PacketDto; validation: ValidationResult }> {
  const p = await getPacket(projectId, id);
  if (p.approvedNumber === null) throw new WorkbenchError("GATE_REFUSED", "Emission refused: no revision has been approved yet. Request a review and have it approved first.");
  const rev = await getRevision(projectId, id, p.approvedNumber);
  const validation = validatePacket(rev.markdown, { taskTokens: rev.taskTokens });
  if (!validation.emittable) {
    const blocks = validation.findings.filter((f) => f.tier === "BLOCK");
    throw new WorkbenchError("GATE_REFUSED", `Emission refused: ${blocks.length} BLOCK finding(s) stand (${[...new Set(blocks.map((b) => b.rule))].join(", ")}). Fix them and save first.`, { findings: blocks });
  }
  return { packet: await markEmitted(projectId, id, rev.number), validation };
}

export { handoffPacket, type Handoff } from "./handoff";

export interface RevisionDiff {
  from: number;
  to: number;
  hunks: { oldStart: number; oldLines: number; newStart: number; newLines: number; lines: string[] }[];
  added: number;
  removed: number;
}

export async function diffRevisions(projectId: string, id: string, from: number, to: number): Promise<RevisionDiff> {
  const [a, b] = await Promise.all([getRevision(projectId, id, from), getRevision(projectId, id, to)]);
  const patch = structuredPatch(`r${from}`, `r${to}`, a.markdown, b.markdown, "", "", { context: 3 });
  let added = 0;
  let removed = 0;
  for (const h of patch.hunks)
    for (const l of h.lines) {
      if (l.startsWith("+")) added++;
      else if (l.startsWith("-")) removed++;
    }
  return { from, to, hunks: patch.hunks.map((h) => ({ oldStart: h.oldStart, oldLines: h.oldLines, newStart: h.newStart, newLines: h.newLines, lines: h.lines })), added, removed };
}

export { getPacket, getRevision, listPackets, listRevisions };
