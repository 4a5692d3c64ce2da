import type { ResolvedLayout } from "../core/config";
import type { FileWarning } from "../core/warnings";

/**
 * Plain objects the UI, API and CLI see; Prisma types never leave lib/db. What the database
 * stores is defined here, below the capabilities that produce it (the inventory's topic sources,
 * roles, saved views), so that lib/db imports only lib/core and its own files.
 */

/** What most project pages need: one row, none of the counts (see getProjectHead). */
export interface ProjectHeadDto {
  id: string;
  name: string;
  rootPath: string;
  layouts: ResolvedLayout[];
  /** When the last index was written (every index write sets it, in the same transaction). */
  lastIndexedAt: string | null;
}

export interface ProjectDto extends ProjectHeadDto {
  createdAt: string;
  topicCount: number;
  warningCount: number;
  latestJob: IndexJobDto | null;
  /** Set for a project cloned from a git remote (its rootPath is then the Workbench's checkout). */
  remote: ProjectRemoteDto | null;
}

export interface ProjectRemoteDto {
  url: string;
  branch: string;
  lastFetchedAt: string | null;
  lastFetchError: string | null;
}

/** "cancelled": stopped by a person; "interrupted": its process ended without finishing (killed, or the server stopped). Neither changed the project. */
export type JobStatus = "queued" | "running" | "succeeded" | "failed" | "cancelled" | "interrupted";
/** "freshness": comparing the project with the last job's record (lib/core/fs/freshness.ts), first, and taking this job's, last. */
export type JobPhase = "queued" | "freshness" | "config" | "listing" | "sources" | "documents" | "git" | "runs" | "saving" | "search" | "done";

export interface IndexStats {
  filesTotal: number;
  filesChanged: number;
  filesRemoved: number;
  topics: number;
  documents: number;
  commits: number;
  branches: number;
  runs: number;
  gitSkipped: boolean;
  durationMs: number;
}

/** What one index run rewrote, so the search sync can touch only those entries. */
export interface IndexChanges {
  /** Slugs whose inventory row was rebuilt or removed. */
  topicSlugs: string[];
  /** Document paths removed or (re)written. */
  documentPaths: string[];
  /** Knowledge areas whose documents were replaced whole. */
  documentAreas: ("requirements" | "product")[];
  /** Whether the commits were rewritten. */
  commits: boolean;
}

export interface IndexJobDto {
  id: string;
  projectId: string;
  status: JobStatus;
  phase: JobPhase;
  filesDone: number;
  filesTotal: number;
  error: string | null;
  stats: Partial<IndexStats>;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

export interface TopicRowDto {
  slug: string;
  title: string | null;
  status: string | null;
  type: string | null;
  updatedAt: string | null;
  sources: SourceKind[];
}

export interface TopicSourceDto extends Omit<TopicSourceRecord, "details"> {
  details: SourceDetails;
}

export interface WarningDto extends FileWarning {
  id: string;
}

export interface DocumentHitDto {
  relPath: string;
  area: "artifact" | "requirements" | "product" | "kb";
  source: SourceKind | null;
  slug: string | null;
  title: string | null;
  content: string;
}

export interface CommitDto {
  hash: string;
  shortHash: string;
  subject: string;
  date: string;
}

export interface BranchDto {
  name: string;
  lastCommitDate: string;
  recent: { shortHash: string; subject: string; date: string }[];
}

// ---------------------------------------------------------------------------
// Roles (ProjectMember.role)

/** A person's role on one project; each role can do everything the ones before it can. */
export const ROLES = ["viewer", "editor", "approver", "admin"] as const;
export type Role = (typeof ROLES)[number];

export function isRole(v: unknown): v is Role {
  return typeof v === "string" && (ROLES as readonly string[]).includes(v);
}

// ---------------------------------------------------------------------------
// Saved views (SavedView)

export const VIEW_SURFACES = ["inventory", "findings", "proposals", "search"] as const;
export type ViewSurface = (typeof VIEW_SURFACES)[number];

export interface SavedViewDto {
  id: string;
  projectId: string;
  surface: ViewSurface;
  name: string;
  path: string;
  createdAt: string;
}

// ---------------------------------------------------------------------------
// Topic sources (TopicSource, with its details as JSON) and search documents (Document),
// as lib/inventory's scanners produce them.

/** The four local sources of the inventory, by the seed's names. */
export const SOURCE_KINDS = ["work", "brainstorm", "proposal", "refactoring"] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

/** A line inside untrusted content that reads as an instruction to the agent. */
export interface FlaggedDirective {
  relPath: string;
  line: number;
  text: string;
  rule: string;
}

/** An agent output file read for a work session (the summary when there is one). */
export interface AgentOutput {
  relPath: string;
  name: string;
  /** True when the distilled -summary.md variant was used. */
  isSummary: boolean;
  text: string;
  /** Inside UNTRUSTED-CONTENT / ARCHIVED-CONTENT markers (archivist, product-expert). */
  untrusted: boolean;
  flagged: FlaggedDirective[];
}

export interface SessionUpdate {
  timestamp: string | null;
  note: string;
  auto: boolean;
}

export interface WorkDetails {
  kind: "work";
  hasState: boolean;
  featureBranch: string | null;
  baseBranch: string | null;
  chunksDone: number | null;
  chunksTotal: number | null;
  nextChunk: string | null;
  keyFiles: string[];
  agentOutputs: AgentOutput[];
  updates: SessionUpdate[];
  promotedFrom: string | null;
  progress: string | null;
}

export interface BrainstormDetails {
  kind: "brainstorm";
  hasState: boolean;
  selectedApproach: string | null;
  alternativesCount: number | null;
  keyDecisions: string[];
  keyFiles: string[];
  phasesDone: number | null;
  phasesTotal: number | null;
  /** First lines of approaches / exploration / implementation picture, for prior art. */
  excerpts: { relPath: string; text: string }[];
}

export interface ProposalDetails {
  kind: "proposal";
  isFile: boolean;
  iterations: number | null;
  keyPoints: string[];
  keyFiles: string[];
}

export interface RefactoringDetails {
  kind: "refactoring";
  scope: string | null;
  progress: string | null;
  filesAffected: string[];
  filesAffectedCount: number | null;
  keyFiles: string[];
}

export type SourceDetails = WorkDetails | BrainstormDetails | ProposalDetails | RefactoringDetails;

/** What one source knows about one slug. */
export interface TopicSourceRecord {
  source: SourceKind;
  slug: string;
  title: string | null;
  status: string | null;
  /** Session type from state.json or the manifest (implementation, requirements, ...). */
  type: string | null;
  phase: string | null;
  createdAt: string | null;
  updatedAt: string | null;
  /** Folder (or file, for single-file proposals) relative to the project root. */
  relPath: string;
  /** Listed in a valid manifest; directory-only entries are found by path lookups. */
  fromManifest: boolean;
  /** Whether the entry exists on disk (a manifest item may point at nothing). */
  onDisk: boolean;
  /** A brainstorm kept in the work folder (pre-migration layout). */
  legacy: boolean;
  /** In the inventory: manifest items, or every folder when the manifest is missing or corrupt. */
  listed: boolean;
  details: SourceDetails;
}

/** A text file kept for fuzzy search (artifact files, requirements KB, product knowledge): stored as it is read back. */
export type SearchDocument = DocumentHitDto;

/**
 * The agent a write is made for (an MCP caller): the personal access token it called with, and
 * that token's name; the stdio server (`workbench mcp`) has no token. Stamped on revisions and
 * review events, and on the project's activity list.
 */
export interface AgentStamp {
  tokenId: string | null;
  name: string;
}

export const AGENT_ACTIONS = ["drafted", "updated", "requested_review", "picked_up_handoff"] as const;
export type AgentAction = (typeof AGENT_ACTIONS)[number];

/** One thing an agent did through MCP. */
export interface AgentActivityDto {
  id: string;
  projectId: string;
  packetId: string | null;
  tokenId: string | null;
  agentName: string;
  /** The account the token belongs to, or "local". */
  actor: string;
  action: AgentAction;
  revision: number | null;
  detail: string | null;
  createdAt: string;
}
