/**
 * SHA-256 in plain JavaScript, for code that hashes many short byte ranges and should not
 * load node:crypto (the reducer: one unit id per unit, each ~100 bytes). Loading node:crypto
 * and OpenSSL costs a CLI process about 2 MB of memory, and a native call per hash also makes a
 * string per hash; this one reads bytes where they lie and writes the hex digits where they
 * go. Same digests as crypto's (tests/unit/core/sha256-js.test.ts).
 */

// prettier-ignore
const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);
// prettier-ignore
const H0 = new Int32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);

const W = new Int32Array(64);
const H = new Int32Array(8);
/** The padded last block or two. */
const TAIL = new Uint8Array(128);
const HEX_DIGITS = new Uint8Array([0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x61, 0x62, 0x63, 0x64, 0x65, 0x66]);

/** One 64-byte block of b at p into H. */
function compress(b: Uint8Array, p: number): void {
  const w = W;
  for (let t = 0; t < 16; t++) {
    const q = p + 4 * t;
    w[t] = (b[q]! << 24) | (b[q + 1]! << 16) | (b[q + 2]! << 8) | b[q + 3]!;
  }
  for (let t = 16; t < 64; t++) {
    const x = w[t - 15]!;
    const y = w[t - 2]!;
    const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
    const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
    w[t] = (w[t - 16]! + s0 + w[t - 7]! + s1) | 0;
  }
  let a = H[0]!;
  let bb = H[1]!;
  let c = H[2]!;
  let d = H[3]!;
  let e = H[4]!;
  let f = H[5]!;
  let g = H[6]!;
  let h = H[7]!;
  for (let t = 0; t < 64; t++) {
    const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const t1 = (h + s1 + ((e & f) ^ (~e & g)) + K[t]! + w[t]!) | 0;
    const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const t2 = (s0 + ((a & bb) ^ (a & c) ^ (bb & c))) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = bb;
    bb = a;
    a = (t1 + t2) | 0;
  }
  H[0] = (H[0]! + a) | 0;
  H[1] = (H[1]! + bb) | 0;
  H[2] = (H[2]! + c) | 0;
  H[3] = (H[3]! + d) | 0;
  H[4] = (H[4]! + e) | 0;
  H[5] = (H[5]! + f) | 0;
  H[6] = (H[6]! + g) | 0;
  H[7] = (H[7]! + h) | 0;
}

/** SHA-256 of src[off, off + len) into H. */
function digest(src: Uint8Array, off: number, len: number): void {
  H.set(H0);
  const end = off + len;
  let p = off;
  for (; end - p >= 64; p += 64) compress(src, p);
  const rest = end - p;
  const blocks = rest + 9 > 64 ? 2 : 1;
  TAIL.fill(0, 0, 64 * blocks);
  for (let k = 0; k < rest; k++) TAIL[k] = src[p + k]!;
  TAIL[rest] = 0x80;
  // The length in bits, big-endian, in the last 8 bytes (len < 2^53).
  const last = 64 * blocks - 8;
  const hi = Math.floor(len / 0x20000000);
  const lo = (len * 8) >>> 0;
  TAIL[last] = hi >>> 24;
  TAIL[last + 1] = hi >>> 16;
  TAIL[last + 2] = hi >>> 8;
  TAIL[last + 3] = hi;
  TAIL[last + 4] = lo >>> 24;
  TAIL[last + 5] = lo >>> 16;
  TAIL[last + 6] = lo >>> 8;
  TAIL[last + 7] = lo;
  compress(TAIL, 0);
  if (blocks === 2) compress(TAIL, 64);
}

/** Writes the lowercase hex SHA-256 of src[off, off + len) as 64 ASCII bytes at out[o]. */
export function sha256HexInto(src: Uint8Array, off: number, len: number, out: Uint8Array, o: number): void {
  digest(src, off, len);
  for (let i = 0; i < 8; i++) {
    const v = H[i]!;
    for (let k = 0; k < 8; k++) out[o + 8 * i + k] = HEX_DIGITS[(v >>> (28 - 4 * k)) & 15]!;
  }
}

const HEX_OUT = Buffer.alloc(64);

/** Lowercase hex SHA-256 of bytes. */
export function sha256HexOfBytes(src: Uint8Array, off = 0, len = src.length - off): string {
  sha256HexInto(src, off, len, HEX_OUT, 0);
  return HEX_OUT.toString("latin1");
}

/** Lowercase hex SHA-256 of a string's UTF-8 bytes (a lone surrogate counts as U+FFFD, as in crypto). */
export function sha256HexOfText(s: string): string {
  return sha256HexOfBytes(Buffer.from(s, "utf8"));
}
