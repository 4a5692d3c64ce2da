/**
 * The projects API: what a project, an index job and a file warning look like on the wire, the
 * input that registers a project, and the routes over them. Pure (zod only): the browser's API
 * client imports it.
 */
import { z } from "zod";
import { defineRoute, isoTime, pathId, projectParams } from "../core/contract";
import type { IndexJobDto, WarningDto } from "../db/dto";

const CREDENTIALS = "must not carry credentials; give the server an SSH key or a git credential helper instead.";
const FORMS = "must be https://…, ssh://…, user@host:path, file://… or an absolute path to a repository.";

/** Why `url` is not an acceptable remote, or null when it is. */
export function remoteUrlProblem(url: string): string | null {
  // Spaces, control characters and a leading dash could be read as more git arguments.
  if (/[\s\x00-\x1f\x7f]/.test(url)) return "must not contain spaces or control characters.";
  if (url.startsWith("-")) return FORMS;
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(url)?.[1]?.toLowerCase();
  if (scheme) {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      return "is not a valid URL.";
    }
    if (scheme !== "https" && scheme !== "ssh" && scheme !== "file") return `${FORMS} "${scheme}://" is not accepted.`;
    if (u.password || (scheme === "https" && u.username)) return CREDENTIALS;
    // Tokens often travel in the query string; git never needs one.
    if (u.search || u.hash) return "must not have a query string or fragment.";
    if (scheme === "file") return u.host && u.host !== "localhost" ? "file:// URLs must name a path on this machine." : null;
    return u.hostname ? null : "must name a host.";
  }
  if (url.startsWith("/")) return null;
  if (/^[^/@]*:[^/@]*@/.test(url)) return CREDENTIALS;
  // "transport::address" would pick a git remote helper (ext:: runs commands).
  if (url.includes("::")) return FORMS;
  // scp-like syntax, as git reads it: [user@]host:path, no "//" after the colon.
  if (/^([A-Za-z0-9._-]+@)?[A-Za-z0-9.-]+:(?!\/\/)[^\s]+$/.test(url)) return null;
  return FORMS;
}

/** A branch name git accepts and that cannot be mistaken for an option or a revision range. */
export function isSafeBranch(name: string): boolean {
  return /^[A-Za-z0-9._/-]+$/.test(name) && !/^[-./]/.test(name) && !/(\.\.|\/\/|\/\.|@\{)/.test(name) && !/(\/|\.lock|\.)$/.test(name) && name !== "HEAD";
}

export const remoteUrl = z
  .string()
  .trim()
  .min(1, "Give the repository's URL.")
  .max(2048)
  .superRefine((v, ctx) => {
    const problem = remoteUrlProblem(v);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

export const branchName = z.string().trim().min(1).max(200).refine(isSafeBranch, "must be a branch name such as main or release/1.2.");

export const addProjectInput = z
  .object({
    path: z.string().trim().min(1, "Give the project's folder path.").max(4096).optional().describe("absolute or relative path of a project folder on the server"),
    url: remoteUrl.optional().describe("git remote to clone into the data directory instead of a folder: https://, ssh://, user@host:path, file:// or an absolute path"),
    branch: branchName.optional().describe("branch of the remote to track; its default branch when absent"),
    name: z.string().trim().max(200).optional().describe("display name; the folder or repository name when absent"),
  })
  .superRefine((v, ctx) => {
    if (v.path === undefined && v.url === undefined) ctx.addIssue({ code: "custom", path: ["path"], message: "Give the project's folder path or a git URL." });
    if (v.path !== undefined && v.url !== undefined) ctx.addIssue({ code: "custom", path: ["url"], message: "Give either a folder path or a git URL, not both." });
    if (v.branch !== undefined && v.url === undefined) ctx.addIssue({ code: "custom", path: ["branch"], message: "A branch goes with a git URL." });
  });

// ---------------------------------------------------------------------------
// Wire shapes

const JOB_STATUSES = ["queued", "running", "succeeded", "failed", "cancelled", "interrupted"] as const;
const JOB_PHASES = ["queued", "freshness", "config", "listing", "sources", "documents", "git", "runs", "saving", "search", "done"] as const;

export const indexJobSchema = z
  .object({
    id: z.string().describe("job id; poll GET /api/v1/jobs/{id}"),
    projectId: z.string().describe("the project being indexed"),
    status: z
      .enum(JOB_STATUSES)
      .describe("queued, running, succeeded or failed; cancelled by a person, or interrupted when its process ended first (the server stopped, or the process was killed): neither changed the project"),
    phase: z.enum(JOB_PHASES).describe("the step the job is in"),
    filesDone: z.number().int().describe("files read so far"),
    filesTotal: z.number().int().describe("files to read (0 until listed)"),
    error: z.string().nullable().describe("why the job failed; null otherwise"),
    stats: z
      .object({
        filesTotal: z.number().describe("files listed"),
        filesChanged: z.number().describe("files re-read"),
        filesRemoved: z.number().describe("files gone since the last index"),
        topics: z.number().describe("topics in the inventory"),
        documents: z.number().describe("documents indexed"),
        commits: z.number().describe("commits read"),
        branches: z.number().describe("branches read"),
        runs: z.number().describe("deep-loop runs found"),
        gitSkipped: z.boolean().describe("true when the folder is not a git repository or git failed"),
        durationMs: z.number().describe("wall time of the job"),
      })
      .partial()
      .describe("what the job did, filled in as it goes"),
    createdAt: isoTime("when the job was queued"),
    startedAt: isoTime("when it started").nullable(),
    finishedAt: isoTime("when it ended").nullable(),
  })
  .describe("an indexing job");

const resolvedLayoutSchema = z
  .object({
    agentDir: z.string().describe("the agent folder: .claude, .opencode or .codex"),
    configPath: z.string().nullable().describe("its configuration.yml, when there is one"),
    artifacts: z
      .record(
        z.string(),
        z.object({
          name: z.string().describe("artifact kind"),
          relPath: z.string().nullable().describe("project-relative folder; null when not configured or unsafe"),
          storageType: z.enum(["git", "directory"]).describe("how the artifact is stored"),
          configured: z.boolean().describe("whether configuration.yml names it"),
        }),
      )
      .describe("where each artifact kind lives, with the seed's defaults applied"),
  })
  .describe("an agent folder's layout as resolved");

export const projectHeadSchema = z.object({
  id: z.string().describe("project id"),
  name: z.string().describe("display name"),
  rootPath: z.string().describe("the folder indexed (for a remote, the Workbench's checkout)"),
  layouts: z.array(resolvedLayoutSchema).describe("the agent folders found and their artifact paths"),
  lastIndexedAt: isoTime("when the last index was written").nullable(),
});

export const projectSchema = projectHeadSchema
  .extend({
    createdAt: isoTime("when the project was added"),
    topicCount: z.number().int().describe("topics in the inventory"),
    warningCount: z.number().int().describe("file warnings of the last index"),
    latestJob: indexJobSchema.nullable().describe("the latest index job"),
    remote: z
      .object({
        url: z.string().describe("the git remote"),
        branch: z.string().describe("the branch tracked"),
        lastFetchedAt: isoTime("last successful fetch").nullable(),
        lastFetchError: z.string().nullable().describe("why the last fetch failed; null when it worked"),
      })
      .nullable()
      .describe("set for a project cloned from a git remote"),
  })
  .describe("a project");

export const warningSchema = z
  .object({
    id: z.string().describe("warning id"),
    relPath: z.string().describe("the file at fault, relative to the project"),
    field: z.string().optional().describe("the JSON field or YAML key at fault, dotted"),
    code: z.string().describe("what kind of problem: corrupt_json, invalid_field, too_large, symlink_loop…"),
    message: z.string().describe("what is wrong, in words"),
  })
  .describe("a file that could not be read (the rest was still indexed)");

export type IndexJob = z.infer<typeof indexJobSchema>;

// The schemas and the interfaces must not drift apart.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const assertSame = <T extends true>(_: T) => undefined;
assertSame<Same<z.infer<typeof indexJobSchema>, IndexJobDto>>(true);
assertSame<Same<Omit<z.infer<typeof warningSchema>, "code">, Omit<WarningDto, "code">>>(true);

// ---------------------------------------------------------------------------
// Routes

const tag = "projects";

export const projectRoutes = {
  list: defineRoute({
    id: "listProjects",
    method: "GET",
    path: "/api/v1/projects",
    tag,
    summary: "List the projects you can see",
    access: { kind: "signed-in" },
    response: { status: 200, description: "the projects", json: z.object({ projects: z.array(projectSchema).describe("the projects you can see, by name") }) },
  }),
  add: defineRoute({
    id: "addProject",
    method: "POST",
    path: "/api/v1/projects",
    tag,
    summary: "Register a folder or clone a git remote, and start indexing it",
    description: "Poll the returned job for progress. Team mode: instance administrators only, since a path reads the server's disk.",
    access: { kind: "signed-in", instanceAdmin: true },
    body: addProjectInput,
    response: { status: 201, description: "the project and its first index job", json: z.object({ project: projectSchema, job: indexJobSchema }) },
    errors: ["INVALID_INPUT", "UNSAFE_PATH", "UNREADABLE", "CONFLICT"],
  }),
  get: defineRoute({
    id: "getProject",
    method: "GET",
    path: "/api/v1/projects/{id}",
    tag,
    summary: "One project with its counts and latest job",
    access: { kind: "project", role: "viewer" },
    params: projectParams,
    response: { status: 200, description: "the project", json: z.object({ project: projectSchema }) },
  }),
  remove: defineRoute({
    id: "removeProject",
    method: "DELETE",
    path: "/api/v1/projects/{id}",
    tag,
    summary: "Remove a project's indexed data",
    description: "The repository on disk is never written; a remote's checkout is the Workbench's own and goes too.",
    access: { kind: "project", role: "admin" },
    params: projectParams,
    response: { status: 204, description: "removed" },
  }),
  fetch: defineRoute({
    id: "fetchProject",
    method: "POST",
    path: "/api/v1/projects/{id}/fetch",
    tag,
    summary: "Fetch a remote project now",
    description: "When the branch moved, an incremental index job starts and is returned; else `job` is null.",
    access: { kind: "project", role: "editor" },
    params: projectParams,
    response: {
      status: 200,
      description: "what the fetch found",
      json: z.object({
        changed: z.boolean().describe("whether the branch moved"),
        head: z.string().describe("the commit the checkout is at"),
        job: indexJobSchema.nullable().describe("the index job started because HEAD moved; null when nothing changed"),
      }),
    },
    errors: ["UNREADABLE"],
  }),
  index: defineRoute({
    id: "indexProject",
    method: "POST",
    path: "/api/v1/projects/{id}/index",
    tag,
    summary: "Start a (re-)index",
    description: "Incremental unless `full=1`: unchanged files are skipped. Poll the job at /api/v1/jobs/{id}.",
    access: { kind: "project", role: "editor" },
    params: projectParams,
    query: z.object({ full: z.enum(["0", "1"]).optional().describe("1 re-reads every file instead of only changed ones") }),
    response: { status: 202, description: "the job started", json: z.object({ job: indexJobSchema }) },
  }),
  job: defineRoute({
    id: "getJob",
    method: "GET",
    path: "/api/v1/jobs/{id}",
    tag,
    summary: "An index job's phase and progress",
    description: "A job of a project you cannot see answers 404, like a missing one.",
    access: { kind: "signed-in" },
    params: z.object({ id: pathId("job id") }),
    response: { status: 200, description: "the job", json: z.object({ job: indexJobSchema }) },
    errors: ["NOT_FOUND"],
  }),
  cancelJob: defineRoute({
    id: "cancelJob",
    method: "POST",
    path: "/api/v1/jobs/{id}/cancel",
    tag,
    summary: "Cancel an index job",
    description:
      "The job is marked cancelled at once and its process ends; the project stays exactly as it was before the job (an index is applied in one transaction at its end, only while the job still runs). Needs the editor role on the job's project, as starting an index does; a job of a project you cannot see answers 404.",
    access: { kind: "signed-in" },
    params: z.object({ id: pathId("job id") }),
    response: { status: 200, description: "the cancelled job", json: z.object({ job: indexJobSchema }) },
    errors: ["NOT_FOUND", "FORBIDDEN", "CONFLICT"],
  }),
  warnings: defineRoute({
    id: "listWarnings",
    method: "GET",
    path: "/api/v1/projects/{id}/warnings",
    tag,
    summary: "Files the last index could not read, and why",
    access: { kind: "project", role: "viewer" },
    params: projectParams,
    response: { status: 200, description: "the warnings", json: z.object({ warnings: z.array(warningSchema).describe("one per file that could not be read") }) },
  }),
};
