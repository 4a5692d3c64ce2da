import fs from "node:fs";
import path from "node:path";
import { ProjectFs } from "../../lib/core/project-fs";
import type { RelevanceJudge } from "../../lib/moc/judge";
import { projectKbSource, type KbSource } from "../../lib/moc/kb-source";
import { buildPack, type PackResult } from "../../lib/moc/walk";
import { makeTempDir } from "./project-builder";

/**
 * Builds docs/ knowledge bases in the central-brain template style (FORMATS.md §5):
 * `# name` / `> description` / `## Sections` with `- [child/](./child/) — hook` /
 * `## Content` with `- [file.md](./file.md) — hook`.
 */

export interface KbFileSpec {
  name: string;
  hook: string;
  /** File text; default a small content file. `null` links the file without creating it. */
  content?: string | null;
}

export interface KbSectionSpec {
  name: string;
  hook: string;
  description?: string;
  sections?: KbSectionSpec[];
  files?: KbFileSpec[];
  /** Appended verbatim to the generated _index.md. */
  extra?: string;
  /** Raw _index.md text instead of the generated one; `null` creates no _index.md (broken link). */
  index?: string | null;
}

export interface KbRootSpec {
  title?: string;
  description?: string;
  sections?: KbSectionSpec[];
  files?: KbFileSpec[];
  extra?: string;
}

export interface IndexSpec {
  title: string;
  description: string;
  /** Shown on the `**Path:**` line. */
  path: string;
  sections?: { name: string; hook: string }[];
  files?: { name: string; hook: string }[];
  extra?: string;
}

/** One _index.md in the template style. */
export function renderIndex(o: IndexSpec): string {
  const out = [`# ${o.title}`, "", `> ${o.description}`, "", `**Path:** ${o.path}`, "**Last updated:** 2026-02-01", ""];
  if (o.sections?.length) {
    out.push("## Sections", ...o.sections.map((s) => `- [${s.name}/](./${s.name}/) — ${s.hook}`), "");
  }
  if (o.files?.length) {
    out.push("## Content", ...o.files.map((f) => `- [${f.name}](./${f.name}) — ${f.hook}`), "");
  }
  if (o.extra) out.push(o.extra, "");
  return out.join("\n");
}

/** A content file in the template style, with `body` under `## Context`. */
export function contentFile(title: string, body: string): string {
  return [`# ${title}`, "", "**Section:** generated", "**Date:** 2026-02-01", "", "## Context", body, ""].join("\n");
}

export class KbBuilder {
  /** The project root (docs/ lives under it). */
  readonly root: string;
  readonly docsDir: string;

  constructor(root?: string, docsDir = "docs") {
    this.root = root ?? makeTempDir("wb-kb-");
    this.docsDir = docsDir;
    fs.mkdirSync(this.root, { recursive: true });
  }

  /** Absolute path of a docs-relative path. */
  abs(rel: string): string {
    return path.join(this.root, this.docsDir, rel);
  }

  /** Writes a file at a docs-relative path. */
  file(rel: string, content: string): this {
    fs.mkdirSync(path.dirname(this.abs(rel)), { recursive: true });
    fs.writeFileSync(this.abs(rel), content);
    return this;
  }

  /** Writes a file at a project-relative path (for things outside docs/). */
  projectFile(rel: string, content: string): this {
    const abs = path.join(this.root, rel);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, content);
    return this;
  }

  remove(rel: string): this {
    fs.rmSync(this.abs(rel), { recursive: true, force: true });
    return this;
  }

  /** docs/_index.md plus every section and file of the spec, recursively. */
  tree(spec: KbRootSpec): this {
    this.file(
      "_index.md",
      renderIndex({
        title: spec.title ?? "Generated KB — docs root index",
        description: spec.description ?? "The map of everything written down about the generated project.",
        path: "`docs/`",
        sections: spec.sections,
        files: spec.files,
        extra: spec.extra,
      }),
    );
    this.writeFiles("", spec.files ?? []);
    for (const s of spec.sections ?? []) this.section("", s);
    return this;
  }

  private writeFiles(dir: string, files: KbFileSpec[]): void {
    for (const f of files) {
      if (f.content === null) continue;
      this.file(path.posix.join(dir, f.name), f.content ?? contentFile(f.name.replace(/\.md$/, ""), f.hook));
    }
  }

  private section(parent: string, s: KbSectionSpec): void {
    const dir = path.posix.join(parent, s.name);
    if (s.index === null) {
      // The folder may still hold files, but no _index.md: a broken section link.
    } else {
      this.file(
        path.posix.join(dir, "_index.md"),
        s.index ??
          renderIndex({
            title: `${s.name}/`,
            description: s.description ?? `The ${s.name} section.`,
            path: `docs/${dir}/`,
            sections: s.sections,
            files: s.files,
            extra: s.extra,
          }),
      );
    }
    this.writeFiles(dir, s.files ?? []);
    for (const c of s.sections ?? []) this.section(dir, c);
  }

  async source(): Promise<KbSource> {
    return projectKbSource(await ProjectFs.open(this.root), this.docsDir);
  }

  /** buildPack over this KB; returns the pack result and the source (for its read stats). */
  async pack(prompt: string, judge?: RelevanceJudge): Promise<PackResult & { kb: KbSource }> {
    const kb = await this.source();
    const result = await buildPack(kb, prompt, judge);
    return { ...result, kb };
  }
}

/** buildPack over an existing project folder, the way the brief calls it. */
export async function packFor(root: string, prompt: string, docsDir = "docs"): Promise<PackResult & { kb: KbSource }> {
  const kb = projectKbSource(await ProjectFs.open(root), docsDir);
  const result = await buildPack(kb, prompt);
  return { ...result, kb };
}

/** The lines of one `## <name>` section of a pack (up to the next of the four pack sections). */
export function packSection(pack: string, name: "Relevant sections walked" | "Files with excerpts" | "Files noted but not read" | "Notes"): string[] {
  const order = ["Relevant sections walked", "Files with excerpts", "Files noted but not read", "Notes"];
  const lines = pack.split("\n");
  const start = lines.indexOf(`## ${name}`);
  if (start === -1) throw new Error(`pack has no "## ${name}" section`);
  const nextName = order[order.indexOf(name) + 1];
  let end = nextName ? lines.indexOf(`## ${nextName}`, start + 1) : lines.length;
  if (end === -1) end = lines.length;
  return lines.slice(start + 1, end).filter((l) => l.trim() !== "");
}

/** The backticked paths of a pack section's `- \`path\` — ...` lines. */
export function listedPaths(pack: string, name: "Relevant sections walked" | "Files noted but not read"): string[] {
  return packSection(pack, name)
    .map((l) => /^- `([^`]+)`/.exec(l)?.[1])
    .filter((x): x is string => x !== undefined);
}

/** Paths under `### \`path\`` headings in "Files with excerpts". */
export function excerptPaths(pack: string): string[] {
  return packSection(pack, "Files with excerpts")
    .map((l) => /^### `([^`]+)`$/.exec(l)?.[1])
    .filter((x): x is string => x !== undefined);
}

/** Reads that are not _index.md files (content files actually read). */
export function contentReads(kb: KbSource): string[] {
  return kb.stats.reads.filter((r) => !r.endsWith("_index.md"));
}
