/**
 * Writing a new context packet (`.coord/context_<NNN>.md`) create-only, so two saves at once
 * never replace each other: the text goes to a fsynced temp file, which is then hard-linked to
 * the packet name. Unlike a rename, a link fails (EEXIST) when the name is taken, and the packet
 * appears whole or not at all; on EEXIST the next number is tried. A filesystem without hard
 * links falls back to `open(…, "wx")`, still create-only (a crash there can leave a short file,
 * which the packet checks then report).
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { WorkbenchError } from "../core/errors";
import { syncDir } from "../core/fs/atomic-write";
import { PACKET_FILE } from "./coord-packets";

const LAST = 999;
/** Link errors that mean "no hard links here", not "name taken". */
const NO_LINKS = new Set(["EPERM", "ENOTSUP", "EOPNOTSUPP", "EXDEV", "ENOSYS"]);

const packetName = (n: number) => `context_${String(n).padStart(3, "0")}.md`;

function highestPacket(coordDir: string): number {
  return fs
    .readdirSync(coordDir)
    .map((name) => PACKET_FILE.exec(name))
    .reduce((max, m) => (m ? Math.max(max, Number(m[1])) : max), 0);
}

function writeAll(fd: number, bytes: Buffer): void {
  for (let off = 0; off < bytes.length; ) off += fs.writeSync(fd, bytes, off, bytes.length - off);
}

/** Creates the next free context_NNN.md in `coordDir` with `text`; returns its file name. */
export function createPacketFile(coordDir: string, text: string): string {
  const bytes = Buffer.from(text, "utf8");
  const temp = path.join(coordDir, `context.md.tmp.${process.pid}.${crypto.randomBytes(6).toString("hex")}`);
  const fd = fs.openSync(temp, "wx");
  try {
    writeAll(fd, bytes);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    for (let n = highestPacket(coordDir) + 1; n <= LAST; n++) {
      const target = path.join(coordDir, packetName(n));
      try {
        fs.linkSync(temp, target);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code ?? "";
        if (code === "EEXIST") continue;
        if (!NO_LINKS.has(code)) throw e;
        if (!createExclusive(target, bytes)) continue;
      }
      syncDir(coordDir);
      return packetName(n);
    }
    throw new WorkbenchError("CONFLICT", `context_${LAST}.md is the last packet number; archive old packets first.`);
  } finally {
    fs.rmSync(temp, { force: true });
  }
}

/** open(…, "wx") and write; false when the name is taken. */
function createExclusive(target: string, bytes: Buffer): boolean {
  let fd: number;
  try {
    fd = fs.openSync(target, "wx");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw e;
  }
  try {
    writeAll(fd, bytes);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  return true;
}
