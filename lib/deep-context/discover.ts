import path from "node:path";
import type { ProjectFs } from "../core/project-fs";

/** The three deep loops and the state log / config each one writes. */
export const LOOP_FILES = {
  context: { state: "deep-context-state.jsonl", config: "deep-context-config.json" },
  research: { state: "deep-research-state.jsonl", config: "deep-research-config.json" },
  review: { state: "deep-review-state.jsonl", config: "deep-review-config.json" },
} as const;
export type LoopType = keyof typeof LOOP_FILES;

export interface RunPacket {
  loopType: LoopType;
  /** The packet folder (e.g. `.opencode/specs/x/context`), relative to the project root. */
  relPath: string;
  /** The spec folder that owns it (the packet folder's parent, or the archive's owner). */
  specFolder: string;
  /** Under a `*_archive/` folder: a previous generation kept for the record. */
  archived: boolean;
  hasState: boolean;
  hasConfig: boolean;
}

/** Folders that hold spec packets in the layouts seen in real repositories. */
export const SPEC_ROOTS = [".opencode/specs", ".claude/specs", ".codex/specs", "specs", ".specify/specs", "docs/specs"];

/**
 * Every run packet in a project: any folder holding a deep-loop state log or config,
 * found under the usual spec roots (archives included).
 */
export async function discoverRuns(pfs: ProjectFs): Promise<RunPacket[]> {
  const byDir = new Map<string, RunPacket>();
  for (const root of SPEC_ROOTS) {
    if (!(await pfs.isDir(root))) continue;
    for (const f of await pfs.walk(root, { maxDepth: 10 })) {
      const name = path.posix.basename(f.relPath);
      for (const [loopType, files] of Object.entries(LOOP_FILES) as [LoopType, (typeof LOOP_FILES)[LoopType]][]) {
        if (name !== files.state && name !== files.config) continue;
        const dir = path.posix.dirname(f.relPath);
        const key = `${loopType}\0${dir}`;
        const prev = byDir.get(key);
        const archived = dir.split("/").some((seg) => /_archive$/.test(seg));
        const specFolder = archived ? dir.slice(0, dir.search(/\/[^/]*_archive(\/|$)/)) : path.posix.dirname(dir);
        byDir.set(key, {
          loopType,
          relPath: dir,
          specFolder,
          archived,
          hasState: (prev?.hasState ?? false) || name === files.state,
          hasConfig: (prev?.hasConfig ?? false) || name === files.config,
        });
      }
    }
  }
  return [...byDir.values()].sort((a, b) => (a.relPath < b.relPath ? -1 : a.relPath > b.relPath ? 1 : 0));
}
