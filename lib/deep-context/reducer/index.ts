/**
 * Public surface of the deep-context reducer: the byte-exact port of the seed's
 * reduce-state.cjs@21d0218 (state log + seat files → findings-registry.json and
 * deep-context-dashboard.md), held to the reference by tests/unit/deep-context/reducer/oracle.test.ts.
 * Nothing here imports zod: `workbench reduce` starts without it.
 */
export { type ReduceOptions, type ReduceResult, type ReduceTimings, reduceContextState, reduceContextStateAsync, summaryText } from "./reduce";
