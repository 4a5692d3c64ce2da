import path from "node:path";
import { ProjectFs } from "../../core/project-fs";
import { buildResearchTimeline, type ResearchTimeline, buildReviewTimeline, type ReviewTimeline, parseResearchStateLog, parseReviewStateLog } from "../convergence";
import { LOOP_FILES } from "../discover";

/** A deep-research or deep-review run's timeline with its own stop signals (read-only). */
export async function loadSiblingTimeline(projectRoot: string, relPath: string, loopType: "research" | "review"): Promise<ResearchTimeline | ReviewTimeline> {
  const pfs = await ProjectFs.open(projectRoot);
  const rel = path.posix.join(relPath, LOOP_FILES[loopType].state);
  const text = (await pfs.isFile(rel)) ? await pfs.readText(rel, 256 * 1024 * 1024) : "";
  return loopType === "research" ? buildResearchTimeline(parseResearchStateLog(text)) : buildReviewTimeline(parseReviewStateLog(text));
}
