import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** The Workbench repository (where package.json, bin/ and examples/ live). */
export const REPO_ROOT = path.resolve(import.meta.dirname, "..", "..");
export const SAMPLE_SOURCE = path.join(REPO_ROOT, "examples", "sample-project");
export const FIXTURES = path.join(REPO_ROOT, "tests", "fixtures");

const created: string[] = [];

/** A fresh folder under the OS temp dir; removed by removeTempDirs(). */
export function makeTempDir(prefix = "wb-test-"): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  created.push(dir);
  return dir;
}

/** Call from afterAll in every file that creates temp dirs. */
export function removeTempDirs(): void {
  for (const dir of created.splice(0)) {
    try {
      fs.rmSync(dir, { recursive: true, force: true });
    } catch {
      // Trees deeper than PATH_MAX (hostile-repository tests): rm(1) walks them with openat.
      execFileSync("rm", ["-rf", dir]);
    }
  }
}

/** Builds small project trees on disk, one call per file. */
export class ProjectBuilder {
  readonly root: string;

  constructor(root?: string) {
    this.root = root ?? makeTempDir("wb-project-");
    fs.mkdirSync(this.root, { recursive: true });
  }

  abs(rel: string): string {
    return path.join(this.root, rel);
  }

  dir(rel: string): this {
    fs.mkdirSync(this.abs(rel), { recursive: true });
    return this;
  }

  file(rel: string, content: string | Buffer): this {
    fs.mkdirSync(path.dirname(this.abs(rel)), { recursive: true });
    fs.writeFileSync(this.abs(rel), content);
    return this;
  }

  json(rel: string, value: unknown, opts: { bom?: boolean } = {}): this {
    return this.file(rel, (opts.bom ? "\uFEFF" : "") + JSON.stringify(value, null, 2) + "\n");
  }

  /** A symlink at `rel` pointing at `target` (absolute, or relative to the link's folder). */
  symlink(rel: string, target: string): this {
    fs.mkdirSync(path.dirname(this.abs(rel)), { recursive: true });
    fs.symlinkSync(target, this.abs(rel));
    return this;
  }

  remove(rel: string): this {
    fs.rmSync(this.abs(rel), { recursive: true, force: true });
    return this;
  }

  /** `<agentDir>/configuration.yml`. */
  config(yaml: string, agentDir = ".claude"): this {
    return this.file(`${agentDir}/configuration.yml`, yaml);
  }

  /** A manifest.json envelope as the nexus skills write it. */
  manifest(dir: string, artifactType: string, items: Record<string, unknown>[]): this {
    return this.json(`${dir}/manifest.json`, {
      version: "1.0",
      last_updated: "2026-02-01T00:00:00Z",
      artifact_type: artifactType,
      total_items: items.length,
      items,
    });
  }

  /** `<workDir>/<slug>/state.json` with schema_version and identifier filled in. */
  workState(slug: string, state: Record<string, unknown>, workDir = ".claude/work"): this {
    return this.json(`${workDir}/${slug}/state.json`, { schema_version: 1, identifier: slug, ...state });
  }
}

/** A plain copy of examples/sample-project (no git history) in a temp dir. */
export function copySampleProject(): string {
  const dest = path.join(makeTempDir("wb-sample-"), "sample");
  fs.cpSync(SAMPLE_SOURCE, dest, {
    recursive: true,
    filter: (src) => !src.split(path.sep).includes(".git"),
  });
  return dest;
}

/** Every file below `root` (not .git), relative, sorted. */
export function listTree(root: string): string[] {
  const out: string[] = [];
  const visit = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      if (e.name === ".git") continue;
      const abs = path.join(dir, e.name);
      if (e.isDirectory()) visit(abs);
      else if (e.isFile()) out.push(path.relative(root, abs).split(path.sep).join("/"));
    }
  };
  visit(root);
  return out.sort();
}

/**
 * Gives every file below `root` (not .git) the same whole-second mtime, so a file's
 * fingerprint is exactly representable and only deliberate edits change it.
 */
export function setAllMtimes(root: string, epochSeconds: number): void {
  for (const rel of listTree(root)) fs.utimesSync(path.join(root, rel), epochSeconds, epochSeconds);
}

/** Rewrites a file and gives it a whole-second mtime different from setAllMtimes' one. */
export function editFile(root: string, rel: string, content: string, epochSeconds: number): void {
  const abs = path.join(root, rel);
  fs.writeFileSync(abs, content);
  fs.utimesSync(abs, epochSeconds, epochSeconds);
}
