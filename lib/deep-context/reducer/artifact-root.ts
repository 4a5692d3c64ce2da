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
import path from "node:path";
import { WorkbenchError } from "../../core/errors";
import type { ProjectFs } from "../../core/project-fs";
import { parseBoundedJson } from "../bounded-json";
import { type Place, childOf, listEntries, parentOf, probe } from "../place";
import { compareNumericNames } from "../text";

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
  /** The packet folder relative to the project root: where it is read and written. */
  artifactRel: string;
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
  return normalized
    .replace(/^\.\/+/, "")
    .replace(/^\.opencode\/specs\//, "")
    .replace(/^specs\//, "");
}

function exists(pfs: ProjectFs, rel: string): boolean {
  const k = probe(pfs, rel).kind;
  return k === "dir" || k === "file";
}

/**
 * Whether a folder above the spec folder holds spec.md (the spec is a child phase). Only
 * folders inside the project are looked at: the search stops at its root, or below a
 * folder named `specs` as in the reference.
 */
function hasAncestorSpecFolder(pfs: ProjectFs, spec: Place): boolean {
  let current = spec;
  while (current.rel !== "") {
    const parent = parentOf(current);
    if (path.basename(parent.abs) === "specs") return false;
    if (exists(pfs, path.posix.join(parent.rel, "spec.md"))) return true;
    current = parent;
  }
  return false;
}

/** Text of a packet file, or null when it cannot be read (missing, or refused by the file layer, which reports it). */
function readText(pfs: ProjectFs, rel: string, kind: "json" | "log"): string | null {
  try {
    return pfs.readBytesSync(rel, { kind }).toString("utf8");
  } catch {
    return null;
  }
}

/** The spec folder a packet belongs to: its config's `specFolder`, else the state log's first record's. */
function readPacketSpecFolder(pfs: ProjectFs, packetRel: string): string | null {
  const configRel = path.posix.join(packetRel, CONFIG_FILE);
  if (exists(pfs, configRel)) {
    const text = readText(pfs, configRel, "json");
    const parsed = text === null ? null : parseBoundedJson(text);
    // An unreadable config, or `null` (whose specFolder the reference fails to read): the state log decides.
    if (parsed?.ok && parsed.value !== null) return normalizeSpecFolderReference((parsed.value as { specFolder?: unknown }).specFolder);
  }
  const text = readText(pfs, path.posix.join(packetRel, STATE_FILE), "log");
  if (text === null) return null;
  for (const line of text.split(/\r?\n/)) {
    if (!line.trim()) continue;
    const first = parseBoundedJson(line);
    return first.ok && first.value !== null ? normalizeSpecFolderReference((first.value as { specFolder?: unknown }).specFolder) : null;
  }
  return null;
}

function listPacketDirectories(pfs: ProjectFs, rootRel: string): string[] {
  return listEntries(pfs, rootRel)
    .filter((e) => e.kind === "dir" && /-pt-\d+$/.test(e.name))
    .map((e) => e.name)
    .sort(compareNumericNames);
}

function nextSubfolder(pfs: ProjectFs, rootRel: string, phaseSlug: string): string {
  const prefix = `${phaseSlug}-pt-`;
  const existing = listEntries(pfs, rootRel).filter((e) => e.name.startsWith(prefix)).length;
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

/**
 * The packet folder of a spec folder, looked up through the project's file layer. `spec`
 * is the spec folder as shown (absolute, as the user named it: packets record it, and the
 * reducer prints paths under it) and as read (relative to the project root).
 */
export function resolveContextArtifactRoot(pfs: ProjectFs, spec: Place): ArtifactRoot {
  assertSafeSpecFolder(spec.abs);
  const root = childOf(spec, MODE);
  const archiveRoot = path.join(spec.abs, `${MODE}_archive`);
  const flat: ArtifactRoot = { rootDir: root.abs, subfolder: null, artifactDir: root.abs, artifactArchiveRoot: archiveRoot, artifactRel: root.rel };
  if (!hasAncestorSpecFolder(pfs, spec)) return flat;

  const target = normalizeSpecFolderReference(spec.abs);
  if (target) {
    const matches = listPacketDirectories(pfs, root.rel).filter((name) => readPacketSpecFolder(pfs, path.posix.join(root.rel, name)) === target);
    const existing = matches[matches.length - 1];
    if (existing) {
      return { rootDir: root.abs, subfolder: existing, artifactDir: path.join(root.abs, existing), artifactArchiveRoot: path.join(archiveRoot, existing), artifactRel: path.posix.join(root.rel, existing) };
    }
  }
  const hasFlat = exists(pfs, path.posix.join(root.rel, CONFIG_FILE)) || exists(pfs, path.posix.join(root.rel, STATE_FILE));
  if (hasFlat) {
    const owner = readPacketSpecFolder(pfs, root.rel);
    if (owner === null || owner === target) return flat;
  }
  if (!hasFlat && listPacketDirectories(pfs, root.rel).length === 0) return flat;
  const subfolder = nextSubfolder(pfs, root.rel, path.basename(spec.abs));
  return { rootDir: root.abs, subfolder, artifactDir: path.join(root.abs, subfolder), artifactArchiveRoot: path.join(archiveRoot, subfolder), artifactRel: path.posix.join(root.rel, subfolder) };
}
