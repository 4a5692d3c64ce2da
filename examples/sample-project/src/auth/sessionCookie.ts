import { parse, serialize } from 'cookie';

export const SESSION_COOKIE = 'acme_sid';

/** Secure + HttpOnly + SameSite=Lax: the storefront and admin portal share the site. */
export function sessionCookieHeader(sessionId: string, expiresAt: Date): string {
  return serialize(SESSION_COOKIE, sessionId, {
    httpOnly: true,
    secure: process.env.NODE_ENV !== 'development',
    sameSite: 'lax',
    path: '/',
    expires: expiresAt,
  });
}

export function readSessionCookie(header: string | undefined): string | null {
  if (!header) return null;
  const value = parse(header)[SESSION_COOKIE];
  return value && value.length >= 32 ? value : null;
}
