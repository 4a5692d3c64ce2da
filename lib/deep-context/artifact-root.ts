/**
 * Where a spec folder's deep-context packet lives (FORMATS.md §1.1): the contract of
 * `resolveArtifactRoot(specFolder, 'context')` in system-spec-kit's
 * review-research-paths.cjs, with the `context` mode tables the reference added.
 *
 * - Root spec (no ancestor folder holding spec.md below a `specs` folder): `{spec}/context`.
 * - Child phase: an existing `context/*-pt-NN` packet whose config/state names this spec
 *   folder; else the flat `context/` when it is empty or belongs to this spec; else a new
 *   `{phaseSlug}-pt-NN` next to the existing ones.
 */
import fs from "node:fs";
import path from "node:path";
import { WorkbenchError } from "../core/errors";
import { compareNumericNames } from "./text";

/** Quotes, `$`, `;`, `|`, `&`, `<`, `>`, backquote and backslash: refused like the reference does. */
export const FORBIDDEN_SPEC_FOLDER_CHARS = /['"`$;|&<>\\]/;

const CONFIG_FILE = "deep-context-config.json";
const STATE_FILE = "deep-context-state.jsonl";
const MODE = "context";

export interface ArtifactRoot {
  /** `{spec}/context` */
  rootDir: string;
  /** `{phaseSlug}-pt-NN` when the packet is a numbered subfolder, else null. */
  subfolder: string | null;
  /** The packet folder: holds config, state log, seats/, registry and dashboard. */
  artifactDir: string;
  artifactArchiveRoot: string;
}

/** The spec-folder reference as packets record it: the part after `.opencode/specs/` or `specs/`. */
export function normalizeSpecFolderReference(specFolder: unknown): string | null {
  if (!specFolder) return null;
  const normalized = String(specFolder).trim().replace(/\\/g, "/").replace(/\/+$/g, "");
  if (!normalized) return null;
  const opencode = normalized.lastIndexOf("/.opencode/specs/");
  if (opencode !== -1) return normalized.slice(opencode + "/.opencode/specs/".length);
  const specs = normalized.lastIndexOf("/specs/");
  if (specs !== -1) return normalized.slice(specs + "/specs/".length);
  return normalized.replace(/^\.\/+/, "").replace(/^\.opencode\/specs\//, "").replace(/^specs\//, "");
}

function findAncestorSpecFolder(specFolder: string): string | null {
  let current = path.resolve(specFolder);
  for (;;) {
    const parent = path.dirname(current);
    if (parent === current || path.basename(parent) === "specs") return null;
    if (fs.existsSync(path.join(parent, "spec.md"))) return parent;
    current = parent;
  }
}

/** The spec folder a packet belongs to: its config's `specFolder`, else the state log's first record's. */
function readPacketSpecFolder(packetDir: string): string | null {
  const configPath = path.join(packetDir, CONFIG_FILE);
  if (fs.existsSync(configPath)) {
    try {
      const config = JSON.parse(fs.readFileSync(configPath, "utf8")) as { specFolder?: unknown };
      return normalizeSpecFolderReference(config.specFolder);
    } catch {
      // unreadable config: fall back to the state log
    }
  }
  const statePath = path.join(packetDir, STATE_FILE);
  if (!fs.existsSync(statePath)) return null;
  try {
    for (const line of fs.readFileSync(statePath, "utf8").split(/\r?\n/)) {
      if (!line.trim()) continue;
      const first = JSON.parse(line) as { specFolder?: unknown };
      return normalizeSpecFolderReference(first.specFolder);
    }
  } catch {
    return null;
  }
  return null;
}

function listPacketDirectories(rootDir: string): string[] {
  if (!fs.existsSync(rootDir)) return [];
  return fs
    .readdirSync(rootDir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && /-pt-\d+$/.test(e.name))
    .map((e) => e.name)
    .sort(compareNumericNames);
}

function nextSubfolder(rootDir: string, phaseSlug: string): string {
  const prefix = `${phaseSlug}-pt-`;
  const existing = fs.existsSync(rootDir) ? fs.readdirSync(rootDir).filter((e) => e.startsWith(prefix)).length : 0;
  return `${prefix}${String(existing + 1).padStart(2, "0")}`;
}

/**
 * Throws UNSAFE_PATH for an empty spec folder or one containing a shell metacharacter
 * (the reference refuses those because workflows interpolate the path into shell commands).
 */
export function assertSafeSpecFolder(specFolder: string): void {
  if (typeof specFolder !== "string" || specFolder.length === 0) {
    throw new WorkbenchError("INVALID_INPUT", "resolveArtifactRoot: specFolder must be a non-empty string");
  }
  if (FORBIDDEN_SPEC_FOLDER_CHARS.test(specFolder)) {
    throw new WorkbenchError("UNSAFE_PATH", "resolveArtifactRoot: specFolder contains forbidden shell metacharacter(s); refusing to proceed");
  }
}

export function resolveContextArtifactRoot(specFolder: string): ArtifactRoot {
  assertSafeSpecFolder(specFolder);
  const resolved = path.resolve(specFolder);
  const rootDir = path.join(resolved, MODE);
  const archiveRoot = path.join(resolved, `${MODE}_archive`);
  const flat: ArtifactRoot = { rootDir, subfolder: null, artifactDir: rootDir, artifactArchiveRoot: archiveRoot };
  if (!findAncestorSpecFolder(resolved)) return flat;

  const target = normalizeSpecFolderReference(resolved);
  if (target) {
    const matches = listPacketDirectories(rootDir).filter((name) => readPacketSpecFolder(path.join(rootDir, name)) === target);
    const existing = matches[matches.length - 1];
    if (existing) {
      return { rootDir, subfolder: existing, artifactDir: path.join(rootDir, existing), artifactArchiveRoot: path.join(archiveRoot, existing) };
    }
  }
  const hasFlat = fs.existsSync(path.join(rootDir, CONFIG_FILE)) || fs.existsSync(path.join(rootDir, STATE_FILE));
  if (hasFlat) {
    const owner = readPacketSpecFolder(rootDir);
    if (owner === null || owner === target) return flat;
  }
  if (!hasFlat && listPacketDirectories(rootDir).length === 0) return flat;
  const subfolder = nextSubfolder(rootDir, path.basename(resolved));
  return { rootDir, subfolder, artifactDir: path.join(rootDir, subfolder), artifactArchiveRoot: path.join(archiveRoot, subfolder) };
}
