/** Public surface of deep-context convergence (signals, score, decision, derived graph, loop replay, sibling timelines). */
export * from "./constants";
export * from "./signals";
export * from "./score";
export * from "./decide";
export * from "./derive-graph";
export * from "./graph-file";
export * from "./seat-merge-lite";
export * from "./seat-files";
export * from "./jsonl-lines";
export * from "./state-log";
export * from "./replay";
export * from "./packet-convergence";
export * from "./sibling-log";
export * from "./sibling-signals";
export * from "./research-timeline";
export * from "./review-timeline";
