/**
 * The bundled sample project ships with deliberate faults (a corrupt manifest, a broken link,
 * an embedded directive…) so a newcomer sees how the Workbench warns. Its SAMPLE.md declares
 * them in the "Deliberate faults" table; this reads that declaration so the pages can say a
 * warning is one of them.
 *
 * A label only ever adds "deliberate: part of the sample" beside a warning that is shown anyway:
 * nothing is hidden or softened, whatever a repository says about itself. And it is added only
 *   - for the bundled sample: the copy `workbench serve --sample` makes in the data folder, or
 *     the Workbench's own examples/sample-project (never another project, even one holding the
 *     same SAMPLE.md, since any repository can write one);
 *   - from the Workbench's own SAMPLE.md, not the project's copy;
 *   - for a file still exactly as the sample shipped it (same bytes): a file someone has since
 *     changed may be broken for a real reason.
 */
import path from "node:path";
import { realPathOrSelf } from "../core/fs/named-file";
import { ProjectFs } from "../core/project-fs";
import { appRoot } from "../db/app-root";
import { sampleProjectDir } from "../db/database-url";
import type { DeliberateFault, SampleFaultPath } from "./sample-fault-match";

export { deliberateFaultsAt, type DeliberateFault, type SampleFaultPath } from "./sample-fault-match";

/** Backticked text in a cell that reads as a project-relative path (no spaces, not absolute, no ".."). */
function cellPaths(cell: string): string[] {
  const out: string[] = [];
  for (const m of cell.matchAll(/`([^`]+)`/g)) {
    const p = m[1]!.trim().replace(/^\.\//, "");
    if (!p || /\s/.test(p) || p.startsWith("/") || p.split("/").includes("..")) continue;
    out.push(p);
  }
  return out;
}

/** Text of a table cell without its markdown code marks. */
const plain = (cell: string) => cell.replace(/`/g, "").trim();

/** The rows of the "## Deliberate faults" table of a SAMPLE.md: fault, where, what the product should do. */
export function parseDeliberateFaults(markdown: string): DeliberateFault[] {
  const lines = markdown.split(/\r?\n/);
  const start = lines.findIndex((l) => /^##\s+Deliberate faults\s*$/.test(l));
  if (start < 0) return [];
  const faults: DeliberateFault[] = [];
  let row = 0;
  for (const line of lines.slice(start + 1)) {
    if (/^#{1,2}\s/.test(line)) break;
    if (!line.trim().startsWith("|")) continue;
    row++;
    // The header and the separator row.
    if (row <= 2) continue;
    const cells = line
      .trim()
      .replace(/^\||\|$/g, "")
      .split("|");
    if (cells.length < 3) continue;
    const paths = cellPaths(cells[1]!);
    if (paths.length) faults.push({ fault: plain(cells[0]!), paths, expected: plain(cells.slice(2).join("|")) });
  }
  return faults;
}

/** The Workbench's own copy of the sample, what SAMPLE.md and the shipped bytes are read from. */
function sampleSource(): string {
  return path.join(appRoot(), "examples", "sample-project");
}

/** Whether a project is the bundled sample: the copy `serve --sample` made, or the Workbench's own. */
export function isBundledSample(projectRoot: string): boolean {
  const root = realPathOrSelf(path.resolve(projectRoot));
  return root === realPathOrSelf(path.resolve(sampleProjectDir())) || root === realPathOrSelf(sampleSource());
}

function bytesOrNull(pfs: ProjectFs, rel: string): Buffer | null {
  try {
    return pfs.isFileSync(rel) ? pfs.readBytesSync(rel) : null;
  } catch {
    return null;
  }
}

/**
 * The deliberate faults of the bundled sample that are still as shipped, by path; empty for any
 * other project, or when the declaration cannot be read (then nothing is labelled).
 */
export function sampleFaultPaths(projectRoot: string): SampleFaultPath[] {
  if (!isBundledSample(projectRoot)) return [];
  let shipped: ProjectFs;
  let project: ProjectFs;
  let faults: DeliberateFault[];
  try {
    shipped = ProjectFs.openSync(sampleSource());
    project = ProjectFs.openSync(projectRoot);
    faults = parseDeliberateFaults(shipped.readTextSync("SAMPLE.md"));
  } catch {
    return [];
  }
  const out: SampleFaultPath[] = [];
  for (const fault of faults) {
    for (const p of fault.paths) {
      const rel = p.replace(/\/$/, "");
      if (shipped.isDirSync(rel)) {
        if (project.isDirSync(rel)) out.push({ path: rel, folder: true, fault });
        continue;
      }
      const original = bytesOrNull(shipped, rel);
      const now = original ? bytesOrNull(project, rel) : null;
      if (original && now && original.equals(now)) out.push({ path: rel, folder: false, fault });
    }
  }
  return out;
}
