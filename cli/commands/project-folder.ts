import { CommanderError } from "commander";
import { ProjectFs } from "../../lib/core/project-fs";
import { AGENT_ARTIFACTS_DESCRIPTION, holdsAgentArtifacts } from "../../lib/projects/artifact-probe";
import { stderr } from "../output";

/** A project the Workbench already knows, for the refusal's list. */
export interface KnownProject {
  name: string;
  rootPath: string;
}

/**
 * The folder a command reads: the one named with --project, else the current folder when it
 * holds agent artifacts (lib/projects/artifact-probe.ts). Otherwise it says so on stderr, with
 * how to name a project and the projects already registered, and stops the command as a usage
 * error (exit 2, as commander's own): taking whatever folder the CLI was started in registered
 * folders nobody meant as projects, the Workbench's own among them.
 *
 * `usage` is the command line that names a project; `known` lists the registered projects
 * (a function, so a command that never opens the database, like loader, need not pass one).
 */
export async function projectFolder(named: string | undefined, usage: string, known?: () => Promise<KnownProject[]>): Promise<string> {
  if (named !== undefined) return named;
  const cwd = process.cwd();
  if (holdsAgentArtifacts(ProjectFs.openSync(cwd))) return cwd;
  stderr.line(`ERROR: no project named, and the current folder holds no agent artifacts: ${cwd}`);
  stderr.line(`  (looked for ${AGENT_ARTIFACTS_DESCRIPTION})`);
  stderr.line(`Name the project folder: ${usage}`);
  const projects = known ? await known().catch(() => []) : [];
  if (projects.length > 0) {
    stderr.line("Projects the Workbench knows:");
    for (const p of projects.slice(0, 10)) stderr.line(`  ${p.name}: ${p.rootPath}`);
    if (projects.length > 10) stderr.line(`  … and ${projects.length - 10} more (workbench serve lists them)`);
  }
  throw new CommanderError(2, "workbench.noProject", "no project named");
}
