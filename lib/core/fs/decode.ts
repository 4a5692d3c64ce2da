import { BINARY_SNIFF_BYTES } from "./limits";

/** True when the bytes look binary: a NUL among the first few kilobytes, as git decides. */
export function looksBinary(bytes: Uint8Array, length = bytes.length): boolean {
  const end = Math.min(length, BINARY_SNIFF_BYTES);
  for (let i = 0; i < end; i++) if (bytes[i] === 0) return true;
  return false;
}

const strict = new TextDecoder("utf-8", { fatal: true });

/**
 * UTF-8 text of the bytes (a leading BOM kept, as fs.readFile keeps it). Invalid sequences
 * become U+FFFD, and `invalidAt` names the byte offset of the first one.
 */
export function decodeUtf8(bytes: Uint8Array): { text: string; invalidAt: number | null } {
  try {
    return { text: strict.decode(bytes), invalidAt: null };
  } catch {
    return { text: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8"), invalidAt: firstInvalidUtf8(bytes) };
  }
}

/** Offset of the first byte that does not start or continue a valid UTF-8 sequence. */
export function firstInvalidUtf8(b: Uint8Array): number {
  let i = 0;
  while (i < b.length) {
    const c = b[i]!;
    let need = 0;
    let min = 0;
    if (c < 0x80) {
      i++;
      continue;
    } else if (c >= 0xc2 && c <= 0xdf) {
      need = 1;
      min = 0x80;
    } else if (c >= 0xe0 && c <= 0xef) {
      need = 2;
      min = 0x800;
    } else if (c >= 0xf0 && c <= 0xf4) {
      need = 3;
      min = 0x10000;
    } else return i;
    if (i + need >= b.length) return i;
    let cp = c & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const d = b[i + k];
      if (d === undefined || (d & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (d & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return -1;
}
