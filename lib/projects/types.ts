/** What the UI, API and CLI see of a project and its index jobs (defined in lib/db/dto.ts, the layer below). */
export type { IndexChanges, IndexJobDto, IndexStats, JobPhase, JobStatus, ProjectDto, ProjectHeadDto, ProjectRemoteDto, WarningDto } from "../db/dto";
