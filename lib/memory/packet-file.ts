/**
 * Writing a new context packet (`.coord/context_<NNN>.md`) create-only, so two saves at once
 * never replace each other: the packet appears whole under the next free number or not at all
 * (publishNewFileSync: a fsynced temp file hard-linked to the name, which fails when the name is
 * taken; then the next number is tried). `.coord` must be a real folder inside the project:
 * a `.coord` that links out of it is refused and nothing is written.
 */
import { WorkbenchError } from "../core/errors";
import { publishNewFileSync } from "../core/fs/exclusive-create";
import type { ProjectFs } from "../core/project-fs";
import { PACKET_FILE } from "./coord-packets";

const COORD = ".coord";
const LAST = 999;

const packetName = (n: number) => `context_${String(n).padStart(3, "0")}.md`;

function* packetNames(from: number): Generator<string> {
  for (let n = from; n <= LAST; n++) yield packetName(n);
}

/** Creates the next free .coord/context_NNN.md with `text`; returns its file name. */
export function createPacketFile(pfs: ProjectFs, text: string): string {
  const dir = pfs.ensureDirSync(COORD);
  const highest = pfs
    .listSync(COORD)
    .map((e) => PACKET_FILE.exec(e.name))
    .reduce((max, m) => (m ? Math.max(max, Number(m[1])) : max), 0);
  const name = publishNewFileSync(dir, text, packetNames(highest + 1));
  if (name === null) throw new WorkbenchError("CONFLICT", `context_${LAST}.md is the last packet number; archive old packets first.`);
  return name;
}
