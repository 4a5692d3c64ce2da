import crypto from "node:crypto";

type OneShotHash = (algorithm: string, data: string, encoding: "hex") => string;
const oneShot = (crypto as unknown as { hash?: OneShotHash }).hash;

/**
 * Lowercase hex SHA-256 of a string's UTF-8 bytes. The one-shot API (Node 20.12) holds no
 * native hash context: a `createHash` object keeps about 700 bytes of OpenSSL state until the
 * garbage collector finds it, which over a full index's 30,000 search entries was tens of MB.
 */
export const sha256Hex: (data: string) => string = oneShot ? (data) => oneShot("sha256", data, "hex") : (data) => crypto.createHash("sha256").update(data).digest("hex");
