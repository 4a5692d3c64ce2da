/**
 * A short-lived token for the co-editing socket. The socket listens on its own port, so the
 * browser's session cookie is not something to rely on there; the page asks the API (which checks
 * the session) for this token, and the socket checks the person's role on the packet's project
 * at every connection, so the token carries only who, never what they may do.
 */
import { jwtVerify, SignJWT } from "jose";

const AUDIENCE = "workbench-collab";
export const COLLAB_TOKEN_TTL_SECONDS = 10 * 60;

/** A key of its own, derived from the auth secret, so a collab token is never a session or API credential. */
function keyFrom(secret: string): Uint8Array {
  return new TextEncoder().encode(`workbench-collab-token:${secret}`);
}

export async function issueCollabToken(secret: string, userId: string, ttlSeconds = COLLAB_TOKEN_TTL_SECONDS): Promise<{ token: string; expiresAt: string }> {
  const exp = Math.floor(Date.now() / 1000) + ttlSeconds;
  const token = await new SignJWT({}).setProtectedHeader({ alg: "HS256" }).setSubject(userId).setAudience(AUDIENCE).setIssuedAt().setExpirationTime(exp).sign(keyFrom(secret));
  return { token, expiresAt: new Date(exp * 1000).toISOString() };
}

/** The account id in a valid, unexpired token; null for anything else. */
export async function verifyCollabToken(secret: string, token: string): Promise<string | null> {
  if (!token) return null;
  try {
    const { payload } = await jwtVerify(token, keyFrom(secret), { audience: AUDIENCE, algorithms: ["HS256"] });
    return typeof payload.sub === "string" && payload.sub ? payload.sub : null;
  } catch {
    return null;
  }
}
