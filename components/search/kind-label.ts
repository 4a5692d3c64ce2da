import type { SearchKind } from "@/lib/search/schemas";

export const KIND_LABEL: Record<SearchKind, string> = {
  topic: "Topic",
  summary: "Summary",
  document: "Document",
  requirement: "Requirement",
  knowledge: "Product knowledge",
  kb: "Knowledge base",
  packet: "Packet",
  brief: "Brief",
  finding: "Finding",
  memory: "Memory event",
  commit: "Commit",
};
