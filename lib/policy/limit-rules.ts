/**
 * The evaluator's comparisons of a metric with its limit, in one place so the task page's rows
 * and `evaluatePolicy` can never disagree (FORMATS §4, evaluate_policy):
 *
 * - a hard metric stops once it reaches its limit (observed >= limit);
 * - children_spawned / active_children stop only past their limit (observed > limit), but spawning
 *   is already refused when they reach it (observed >= limit), since one more would pass it;
 * - transcript growth since the last checkpoint (transcript_bytes - last_checkpoint_transcript_bytes)
 *   requires a checkpoint once it reaches checkpoint_transcript_bytes (growth >= limit).
 */
import type { LimitName } from "./schemas";

/** Child counts and the limit each is held to, in the order their reasons appear. */
export const CHILD_LIMITS = [
  ["children_spawned", "max_children_per_parent"],
  ["active_children", "max_concurrency"],
] as const satisfies readonly (readonly [string, LimitName])[];

export const hardLimitReached = (observed: number, limit: number): boolean => observed >= limit;
export const childLimitExceeded = (observed: number, limit: number): boolean => observed > limit;
export const childLimitBlocksSpawn = (observed: number, limit: number): boolean => observed >= limit;
export const transcriptGrowth = (transcriptBytes: number, lastCheckpointBytes: number): number => transcriptBytes - lastCheckpointBytes;
export const checkpointDue = (growth: number, limit: number): boolean => growth >= limit;
