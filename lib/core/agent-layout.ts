/**
 * Where the load-context skill keeps its artifacts by default (seed 002's
 * `resolve_artifact_typed` defaults), without the configuration reader: the CLI's fast start
 * asks whether a folder holds agent artifacts and must not load zod or YAML for it.
 */

/** Agent folders whose layout the Workbench recognises, first one primary. */
export const AGENT_DIRS = [".claude", ".opencode", ".codex"] as const;
export type AgentDir = (typeof AGENT_DIRS)[number];

export const ARTIFACT_NAMES = ["work", "brainstorms", "proposals", "refactoring", "requirements", "product-knowledge"] as const;
export type ArtifactName = (typeof ARTIFACT_NAMES)[number];

/** resolve_artifact_typed's second argument: the default subdirectory under the agent folder. */
export const DEFAULT_SUBDIR: Record<ArtifactName, string> = {
  work: "work",
  brainstorms: "brainstorm",
  proposals: "proposals",
  refactoring: "work/refactoring-sessions",
  requirements: "requirements",
  "product-knowledge": ".",
};

/** The skill's configuration file inside an agent folder. */
export const CONFIGURATION_FILE = "configuration.yml";
