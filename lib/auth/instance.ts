/**
 * The auth library (better-auth) on our database: email and password (the library hashes with
 * scrypt), an OIDC provider from the environment, sessions in cookies, and personal access tokens
 * (its api-key plugin stores only a hash). Built once per process, in team mode only.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { apiKey } from "@better-auth/api-key";
import { betterAuth } from "better-auth";
import { APIError } from "better-auth/api";
import { genericOAuth } from "better-auth/plugins/generic-oauth";
import { WorkbenchError } from "../core/errors";
import { authDatabaseAdapter } from "../db/auth-adapter";
import { countAccounts, promoteIfFirstAccount } from "../db/repositories/accounts";
import { readAuthConfig } from "./config";

export const TOKEN_PREFIX = "wb_";
export const COOKIE_PREFIX = "workbench";
export const OIDC_PROVIDER_ID = "oidc";
export const SIGNUP_CLOSED = "Sign-up is closed: ask an administrator for an account.";

/**
 * Set while an instance admin creates an account, which closed sign-up otherwise refuses. Kept on
 * globalThis because Next bundles this module into several server chunks, and the hook must see
 * the same store as the route that sets it.
 */
const ga = globalThis as unknown as { __workbenchAdminCreation?: AsyncLocalStorage<true> };
const creatingAsAdmin = (ga.__workbenchAdminCreation ??= new AsyncLocalStorage<true>());

export function asAdminCreation<T>(fn: () => Promise<T>): Promise<T> {
  return creatingAsAdmin.run(true, fn);
}

async function build() {
  const config = readAuthConfig();
  if (config.mode !== "team") throw new WorkbenchError("NOT_FOUND", "Accounts exist in team mode only.");
  return betterAuth({
    appName: "Context Workbench",
    secret: config.secret,
    baseURL: config.publicUrl,
    database: await authDatabaseAdapter(),
    emailAndPassword: { enabled: true, minPasswordLength: 10, maxPasswordLength: 256 },
    session: { expiresIn: 60 * 60 * 24 * 14, updateAge: 60 * 60 * 24 },
    advanced: { cookiePrefix: COOKIE_PREFIX },
    logger: {
      // A wrong or revoked token is a 401 for its sender, not a server error worth a log line.
      log: (level, message, ...args) => {
        if (message.startsWith("Failed to validate API key")) return;
        (level === "error" ? console.error : console.warn)(`[auth] ${message}`, ...args);
      },
    },
    // Without a configured public URL, the origin the browser addressed (Host, or the proxy's
    // X-Forwarded-Host) is trusted; a cross-site request carries another Origin and is refused.
    trustedOrigins: (req) => {
      if (config.publicUrl) return [config.publicUrl];
      const host = req?.headers.get("x-forwarded-host") ?? req?.headers.get("host");
      const proto = req?.headers.get("x-forwarded-proto") ?? (req ? new URL(req.url).protocol.slice(0, -1) : "http");
      return host ? [`${proto}://${host}`] : [];
    },
    databaseHooks: {
      user: {
        create: {
          before: async (_user, ctx) => {
            const byAdmin = creatingAsAdmin.getStore() === true;
            // The first account becomes instance admin: only the setup code (checked by the sign-up
            // route, app/api/auth/[...all]) or the server's own CLI may create it, never single sign-on.
            const allowed = (await countAccounts()) === 0 ? byAdmin || ctx?.path === "/sign-up/email" : byAdmin || config.signup === "open" || (ctx?.path?.startsWith("/callback/") ?? false);
            if (!allowed) throw new APIError("FORBIDDEN", { message: SIGNUP_CLOSED });
          },
          after: async (user) => promoteIfFirstAccount(user.id),
        },
      },
    },
    plugins: [
      apiKey({
        defaultPrefix: TOKEN_PREFIX,
        requireName: true,
        maximumNameLength: 64,
        // Agents call often; the token's owner and role bound what it can do, not a request quota.
        rateLimit: { enabled: false },
      }),
      ...(config.oidc
        ? [
            genericOAuth({
              config: [
                {
                  providerId: OIDC_PROVIDER_ID,
                  discoveryUrl: config.oidc.discoveryUrl,
                  clientId: config.oidc.clientId,
                  clientSecret: config.oidc.clientSecret,
                  scopes: ["openid", "email", "profile"],
                  pkce: true,
                },
              ],
            }),
          ]
        : []),
    ],
  });
}

export type Auth = Awaited<ReturnType<typeof build>>;

const g = globalThis as unknown as { __workbenchAuth?: Promise<Auth> };

export function getAuth(): Promise<Auth> {
  if (!g.__workbenchAuth) {
    g.__workbenchAuth = build().catch((e) => {
      g.__workbenchAuth = undefined;
      throw e;
    });
  }
  return g.__workbenchAuth;
}

/** Tests switch modes within one process. */
export function resetAuthForTests(): void {
  g.__workbenchAuth = undefined;
}
