/**
 * Which warnings are the bundled sample's deliberate faults (sample-faults.ts reads them): plain
 * data and a pure match, so any page or component can label a warning without reading files.
 */

export interface DeliberateFault {
  /** What is wrong, as SAMPLE.md says it ("Corrupt manifest (JSON cut off in the middle of an item)"). */
  fault: string;
  /** The project-relative paths it names; a folder ends with "/". */
  paths: string[];
  /** What the product should do about it. */
  expected: string;
}

/** A path of the sample that carries a deliberate fault, confirmed as shipped. */
export interface SampleFaultPath {
  path: string;
  folder: boolean;
  fault: DeliberateFault;
}

/** The deliberate faults a warning about `relPath` may be: at the file itself, or at a folder holding it. Empty: a warning like any other. */
export function deliberateFaultsAt(faults: readonly SampleFaultPath[] | undefined, relPath: string | null | undefined): DeliberateFault[] {
  if (!faults?.length || !relPath) return [];
  const rel = relPath.replace(/^\.\//, "");
  return [...new Set(faults.filter((f) => rel === f.path || (f.folder && rel.startsWith(`${f.path}/`))).map((f) => f.fault))];
}
