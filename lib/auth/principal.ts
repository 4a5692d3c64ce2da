/**
 * Who is asking. Local mode has one person with every right; in team mode a request carries a
 * session cookie (browsers) or a personal access token (`Authorization: Bearer wb_…`, agents and
 * the CLI), and a request with neither, or with one that does not verify, has no principal.
 */
import { getAccount } from "../db/repositories/accounts";
import { isTeamMode } from "./config";
import { getAuth, TOKEN_PREFIX } from "./instance";

export type Principal = { kind: "local" } | { kind: "user"; userId: string; name: string; email: string; isAdmin: boolean; via: "session" | "token" };

export const LOCAL_PRINCIPAL: Principal = { kind: "local" };

function bearerToken(headers: Headers): string | null {
  const auth = headers.get("authorization");
  const m = auth ? /^Bearer\s+(\S+)$/i.exec(auth) : null;
  const token = m?.[1] ?? headers.get("x-api-key");
  return token && token.startsWith(TOKEN_PREFIX) ? token : null;
}

async function toPrincipal(userId: string, via: "session" | "token"): Promise<Principal | null> {
  const account = await getAccount(userId);
  return account ? { kind: "user", userId, name: account.name, email: account.email, isAdmin: account.isAdmin, via } : null;
}

/** The token a request carries (team mode) and whose it is; null without one, or when it does not verify (unknown, revoked, disabled, expired). */
export async function tokenPrincipalFrom(headers: Headers): Promise<{ principal: Principal; token: { id: string; name: string | null } } | null> {
  const token = bearerToken(headers);
  if (!token) return null;
  const res = await (await getAuth()).api.verifyApiKey({ body: { key: token } });
  if (!res.valid || !res.key) return null;
  const principal = await toPrincipal(res.key.referenceId, "token");
  return principal ? { principal, token: { id: res.key.id, name: res.key.name ?? null } } : null;
}

export async function principalFrom(headers: Headers): Promise<Principal | null> {
  if (!isTeamMode()) return LOCAL_PRINCIPAL;
  if (bearerToken(headers)) return (await tokenPrincipalFrom(headers))?.principal ?? null;
  const session = await (await getAuth()).api.getSession({ headers });
  return session ? toPrincipal(session.user.id, "session") : null;
}
