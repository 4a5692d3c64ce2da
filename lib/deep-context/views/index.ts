/**
 * Public surface of deep-context run views: what the run list, the run page, its findings
 * windows, the agreement matrix, the context report, evidence checks and the live stream read.
 */
export { type AgreementView, agreementView } from "./agreement";
export { type ContextReport, type ReuseEntry, readContextReport } from "./context-report";
export { type EvidenceCheck, parseEvidence, verifyEvidence } from "./evidence";
export { eventsInTimeOrder } from "./event-order";
export { type RunExecutor, type SeatFileLabel, runExecutors, seatFileLabels } from "./executors";
export {
  FINDING_SORTS,
  MAX_FINDINGS_LIMIT,
  type FindingSort,
  type FindingsFacets,
  type FindingsPage,
  type FindingsQuery,
  type FindingsQueryInput,
  findingsFacets,
  findingsQuerySchema,
  queryFindings,
} from "./findings-query";
export { type RunPageView, pageViewOf } from "./page-view";
export { type RunSummary, summarizeRun } from "./run-summary";
export { type FindingRow, type RunView, type RunViewOptions, type StateLogView, bestConnected, loadRunView } from "./run-view";
export {
  EVENTS_PER_WINDOW,
  EVENT_NAMES_PER_ENTRY,
  ITERATIONS_PER_WINDOW,
  LISTED_WARNINGS,
  type ListWindow,
  type RunWindowQuery,
  runWindowFromParams,
  runWindowQuerySchema,
  sliceOf,
  windowOf,
  windowSteps,
  withEventCounts,
} from "./run-window";
export { type GateProvenance, type LoggedSource, type SignalPoint, type SignalProvenance, loggedSourceOf, signalPoints, signalProvenance } from "./signal-provenance";
export { loadSiblingTimeline } from "./sibling-view";
export { cachedRunView, cachedRunViewAndVersion } from "./view-cache";
export { type WatchOptions, watchPacket } from "./watch";
