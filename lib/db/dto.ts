import type { ResolvedLayout } from "../core/config";
import type { FileWarning } from "../core/warnings";
import type { SourceDetails, SourceKind, TopicSourceRecord } from "../inventory/types";

/** Plain objects the UI, API and CLI see; Prisma types never leave lib/db. */

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

export type JobStatus = "queued" | "running" | "succeeded" | "failed";
export type JobPhase = "queued" | "config" | "listing" | "sources" | "documents" | "git" | "runs" | "saving" | "search" | "done";

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
  area: "artifact" | "requirements" | "product";
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
