/**
 * Projects as the pages read them: the list (team mode: the ones a person may see), one project
 * or just its head, and the files its last index could not read. Adding, fetching and removing
 * are in add-project.ts and remote.ts.
 */
export { getProject, getProjectHead, listProjectNames, listProjects } from "../db/repositories/projects";
export { listWarnings } from "../db/repositories/warnings";
export { deleteProject } from "../db/repositories/projects";
export { getJob } from "../db/repositories/jobs";
/** Statement counting for the load benchmark (lib/db/query-stats.ts). */
export { queryStatsEnabled, queryTotal } from "../db/query-stats";
