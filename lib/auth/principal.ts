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

export async function principalFrom(headers: Headers): Promise<Principal | null> {
  if (!isTeamMode()) return LOCAL_PRINCIPAL;
  const auth = await getAuth();
  const token = bearerToken(headers);
  if (token) {
    const res = await auth.api.verifyApiKey({ body: { key: token } });
    return res.valid && res.key ? toPrincipal(res.key.referenceId, "token") : null;
  }
  const session = await auth.api.getSession({ headers });
  return session ? toPrincipal(session.user.id, "session") : null;
}
