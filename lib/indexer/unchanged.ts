import { gitLocationEnv } from "../core/env-plain";
import { ProjectFs } from "../core/project-fs";
import type { IndexStats } from "../db/dto";
import { readFreshnessText } from "../db/repositories/index-freshness";
import { getProjectIndexState } from "../db/repositories/projects";
import { parseFreshness, stillFresh } from "../core/fs/freshness";

/** What an index job answers when nothing changed (its duration aside). */
export type UnchangedStats = Omit<IndexStats, "durationMs">;

/**
 * The stats of a re-index that would change nothing, or null when something may have changed
 * (or no trusted record exists): then the indexer must run. Loads no parser and no indexer,
 * so `workbench load-context` can ask before loading them.
 */
export async function unchangedStats(projectId: string): Promise<UnchangedStats | null> {
  const [state, text] = await Promise.all([getProjectIndexState(projectId), readFreshnessText(projectId)]);
  const record = text === null ? null : parseFreshness(text);
  if (!state || !record) return null;
  let root: string;
  try {
    root = ProjectFs.openSync(state.rootPath).root;
  } catch {
    return null;
  }
  return stillFresh(root, record, gitLocationEnv()) ? (record.stats as UnchangedStats) : null;
}
