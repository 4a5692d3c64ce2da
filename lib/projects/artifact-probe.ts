/**
 * Whether a folder holds what the seeds' agent skills write, so a command that was given no
 * project can tell a project from any other folder (the Workbench's own, a home folder) before
 * registering it. Stats only, synchronously, and without zod or the configuration reader: the
 * CLI's fast load-context start asks too.
 */
import path from "node:path";
import { AGENT_DIRS, CONFIGURATION_FILE, DEFAULT_SUBDIR } from "../core/agent-layout";
import type { ProjectFs } from "../core/project-fs";
import { LOOP_FILES, SPEC_ROOTS } from "../deep-context/discover";
import { MEMORY_FILE } from "../memory/memory-path";

/** The context-loader's knowledge-base root (seed 000: "Read docs/_index.md"). */
const KB_ROOT = "docs/_index.md";
const COORD_DIR = path.posix.dirname(MEMORY_FILE);
const RUN_FILES: ReadonlySet<string> = new Set(Object.values(LOOP_FILES).flatMap((f) => [f.state, f.config]));
/** How far below a spec root a run packet is looked for, and how many entries at most: a probe, not the indexer's walk. */
const RUN_DEPTH = 6;
const RUN_ENTRIES = 5_000;

/** What the probe looks for, in words, for a message that says why a folder was not taken. */
export const AGENT_ARTIFACTS_DESCRIPTION =
  `load-context's folders (${AGENT_DIRS.map((d) => `${d}/`).join(", ")} with ${DEFAULT_SUBDIR.work}/, ${DEFAULT_SUBDIR.brainstorms}/, ${DEFAULT_SUBDIR.proposals}/ or ${CONFIGURATION_FILE}), ` +
  `agent-context-budget's ${COORD_DIR}/, the context-loader's ${KB_ROOT}, or a deep-context run under ${SPEC_ROOTS.join(", ")}`;

/**
 * The project-relative paths of the agent artifacts found in `pfs`'s root (empty: none). Each
 * source the index reads counts: load-context's work, brainstorm and proposal folders (the
 * refactoring sessions live under work/) or its configuration.yml in an agent folder, the
 * `.coord/` folder of agent-context-budget, the knowledge base's `docs/_index.md`, and a
 * deep-context run packet (its state log or config) under a spec root. An agent folder alone
 * is not one: agents keep their settings there in any repository.
 */
export function findAgentArtifacts(pfs: ProjectFs): string[] {
  return [...agentArtifacts(pfs)];
}

/** Whether `pfs`'s root holds any agent artifact: stops at the first, cheapest checks first (a start of the CLI asks). */
export function holdsAgentArtifacts(pfs: ProjectFs): boolean {
  return !agentArtifacts(pfs).next().done;
}

function* agentArtifacts(pfs: ProjectFs): Generator<string> {
  for (const agentDir of AGENT_DIRS) {
    if (!pfs.isDirSync(agentDir)) continue;
    const config = `${agentDir}/${CONFIGURATION_FILE}`;
    if (pfs.isFileSync(config)) yield config;
    for (const sub of [DEFAULT_SUBDIR.work, DEFAULT_SUBDIR.brainstorms, DEFAULT_SUBDIR.proposals]) {
      const dir = `${agentDir}/${sub}`;
      if (pfs.isDirSync(dir)) yield `${dir}/`;
    }
  }
  if (pfs.isDirSync(COORD_DIR)) yield `${COORD_DIR}/`;
  if (pfs.isFileSync(KB_ROOT)) yield KB_ROOT;
  for (const root of SPEC_ROOTS) {
    if (!pfs.isDirSync(root)) continue;
    const run = pfs.walkSync(root, { maxDepth: RUN_DEPTH, maxEntries: RUN_ENTRIES, parallel: false }).find((f) => RUN_FILES.has(path.posix.basename(f.relPath)));
    if (run) yield run.relPath;
  }
}
