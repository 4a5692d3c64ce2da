/**
 * The inventory's vocabulary. The shapes the index stores (source kinds, topic source records
 * with their details, search documents) are defined in lib/db/dto.ts, the layer below, and
 * re-exported here for the inventory's own code.
 */
import type { SourceKind } from "../db/dto";

export { SOURCE_KINDS } from "../db/dto";
export type { AgentOutput, BrainstormDetails, FlaggedDirective, ProposalDetails, RefactoringDetails, SearchDocument, SessionUpdate, SourceDetails, SourceKind, TopicSourceRecord, WorkDetails } from "../db/dto";

export const SOURCE_LABEL: Record<SourceKind, string> = {
  work: "Work",
  brainstorm: "Brainstorm",
  proposal: "Proposal",
  refactoring: "Refactoring",
};

/** The inventory's rows, a topic's sources, and the documents and commits they link to, as the UI sees them. */
export type { TopicRowDto, TopicSourceDto } from "../db/dto";
export type { CommitDto, DocumentDto } from "../db/repositories/documents";
