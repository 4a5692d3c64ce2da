import type { ResolvedLayout } from "../core/config";
import type { BranchDto, CommitDto, DocumentHitDto, TopicRowDto, TopicSourceDto } from "../db/dto";
import type { SourceKind } from "./types";

/** What load-context reads from the index; the database implements it, tests fake it. */
export interface ContextStore {
  layouts(): Promise<ResolvedLayout[]>;
  /** Whether the requirements KB / product knowledge is configured and its folder exists. */
  knowledgeConfigured(): Promise<{ requirements: boolean; product: boolean }>;
  sourcesForSlug(slug: string): Promise<TopicSourceDto[]>;
  /** Records whose slug contains `needle` (case-insensitive), at most `limit` per source. */
  sourcesWithSlugLike(needle: string, limit: number): Promise<TopicSourceDto[]>;
  /** Documents of an area containing any of `needles` (case-insensitive), by path, at most `limit`. */
  documentsContaining(needles: string[], area: DocumentHitDto["area"], limit: number): Promise<DocumentHitDto[]>;
  branchesContaining(needle: string): Promise<BranchDto[]>;
  /** `git log --all --grep`: commits whose message contains `needle`, git's order, at most `limit`. */
  commitsGrep(needle: string, limit: number): Promise<CommitDto[]>;
  topics(): Promise<TopicRowDto[]>;
}

export type { SourceKind };
