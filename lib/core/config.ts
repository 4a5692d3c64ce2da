import path from "node:path";
import YAML from "yaml";
import { z } from "zod";
import { MAX_NESTING } from "./fs/limits";
import { yamlNestingDepth } from "./fs/nesting";
import { parseLenient } from "./lenient";
import type { ProjectFs } from "./project-fs";
import type { WarningSink } from "./warnings";
import { AGENT_DIRS, ARTIFACT_NAMES, CONFIGURATION_FILE, DEFAULT_SUBDIR, type AgentDir, type ArtifactName } from "./agent-layout";

export { AGENT_DIRS, ARTIFACT_NAMES, type AgentDir, type ArtifactName } from "./agent-layout";

export const configurationSchema = z
  .object({
    execution_mode: z.unknown().optional().describe("team | subagent, or {default, overrides}"),
    storage: z
      .object({
        locations: z
          .record(
            z.string(),
            z.object({
              type: z.enum(["git", "directory"]).describe("git repos sync; directories are local"),
              path: z.string().describe("absolute, or relative to the project root"),
            }),
          )
          .optional()
          .describe("named storage backends"),
        artifacts: z
          .record(
            z.string(),
            z.object({
              location: z.string().describe("a key of storage.locations"),
              subdir: z.string().describe("folder inside the location; '.' for its root"),
            }),
          )
          .optional()
          .describe("artifact name to location + subdir"),
      })
      .optional()
      .describe("where artifacts are stored"),
  })
  .loose();
export type Configuration = z.output<typeof configurationSchema>;

export interface ResolvedArtifact {
  name: ArtifactName;
  /** Project-relative folder, or null when not configured (requirements, product knowledge) or unsafe. */
  relPath: string | null;
  storageType: "git" | "directory";
  /** True when configuration.yml names it; requirements and product knowledge are read only then. */
  configured: boolean;
}

export interface ResolvedLayout {
  agentDir: AgentDir;
  configPath: string | null;
  artifacts: Record<ArtifactName, ResolvedArtifact>;
}

function normalizeRel(p: string): string {
  const n = path.posix.normalize(p.split(path.sep).join("/"));
  return n === "." ? "." : n.replace(/\/$/, "");
}

/** Reads `<agentDir>/configuration.yml` and resolves the six artifact paths with the seed's defaults. */
export async function resolveLayout(pfs: ProjectFs, agentDir: AgentDir, warn: WarningSink): Promise<ResolvedLayout> {
  const configRel = `${agentDir}/${CONFIGURATION_FILE}`;
  let config: Configuration | null = null;
  let configPath: string | null = null;
  if (await pfs.isFile(configRel)) {
    configPath = configRel;
    try {
      const text = await pfs.readText(configRel, { kind: "yaml" });
      if (yamlNestingDepth(text, MAX_NESTING) > MAX_NESTING) throw new Error(`nested more than ${MAX_NESTING} levels deep`);
      const doc = YAML.parse(text) as unknown;
      config = doc == null ? {} : parseLenient(configurationSchema, doc, configRel, warn);
    } catch (e) {
      const msg = e instanceof Error ? e.message.split("\n")[0] : String(e);
      warn({ relPath: configRel, code: "corrupt_yaml", message: `${configRel}: not valid YAML (${msg}); using defaults.` });
    }
  }
  const artifacts = {} as Record<ArtifactName, ResolvedArtifact>;
  for (const name of ARTIFACT_NAMES) {
    const entry = config?.storage?.artifacts?.[name];
    const location = entry ? config?.storage?.locations?.[entry.location] : undefined;
    if (entry && !location) {
      warn({
        relPath: configRel,
        field: `storage.artifacts.${name}.location`,
        code: "invalid_field",
        message: `${configRel}: artifact "${name}" names location "${entry.location}", which storage.locations does not define; using the default.`,
      });
    }
    if (entry && location) {
      const joined = entry.subdir === "." ? location.path : path.posix.join(location.path, entry.subdir);
      const abs = path.resolve(pfs.root, joined);
      const inside = abs === pfs.root || abs.startsWith(pfs.root + path.sep);
      if (!inside) {
        warn({
          relPath: configRel,
          field: `storage.artifacts.${name}`,
          code: "outside_root",
          message: `${configRel}: "${name}" resolves to ${joined}, outside the project; not read.`,
        });
        artifacts[name] = { name, relPath: null, storageType: location.type, configured: false };
        continue;
      }
      artifacts[name] = {
        name,
        relPath: normalizeRel(path.relative(pfs.root, abs) || "."),
        storageType: location.type,
        configured: true,
      };
      continue;
    }
    const optional = name === "requirements" || name === "product-knowledge";
    artifacts[name] = {
      name,
      relPath: optional ? null : normalizeRel(path.posix.join(agentDir, DEFAULT_SUBDIR[name])),
      storageType: "directory",
      configured: false,
    };
  }
  return { agentDir, configPath, artifacts };
}

/**
 * Layouts of the agent folders that hold this layout: a configuration.yml or one of
 * the artifact folders (a `.opencode/` with only specs in it is not one). `.claude`
 * alone when none does.
 */
export async function resolveLayouts(pfs: ProjectFs, warn: WarningSink): Promise<ResolvedLayout[]> {
  const layouts: ResolvedLayout[] = [];
  for (const d of AGENT_DIRS) {
    if (!(await pfs.isDir(d))) continue;
    const layout = await resolveLayout(pfs, d, warn);
    const dirs = (["work", "brainstorms", "proposals", "refactoring"] as const).map((k) => layout.artifacts[k].relPath);
    let used = layout.configPath !== null;
    for (const dir of dirs) if (!used && dir && (await pfs.isDir(dir))) used = true;
    if (used) layouts.push(layout);
  }
  return layouts.length > 0 ? layouts : [await resolveLayout(pfs, ".claude", warn)];
}
