/**
 * How this server authenticates, read once from the environment. Local mode (the default) is a
 * single person on 127.0.0.1 and needs no sign-in; team mode refuses every request that carries
 * no valid session or personal access token.
 */
import { WorkbenchError } from "../core/errors";
import { readEnv, type EnvSource } from "../core/env";

export interface OidcConfig {
  issuer: string;
  discoveryUrl: string;
  clientId: string;
  clientSecret: string;
  name: string;
}

export type AuthConfig = { mode: "local" } | { mode: "team"; secret: string; publicUrl: string | undefined; signup: "open" | "closed"; oidc: OidcConfig | null };

/** The auth configuration of this environment; a team mode without a secret is refused, not weakened. */
export function readAuthConfig(env: EnvSource = process.env): AuthConfig {
  // Local mode reads nothing else, so a stray team variable cannot stop a local server.
  if (!isTeamMode(env)) return { mode: "local" };
  // Read in this order, so the first invalid variable is the one named.
  const e = {
    WORKBENCH_MODE: readEnv("WORKBENCH_MODE", env),
    WORKBENCH_AUTH_SECRET: readEnv("WORKBENCH_AUTH_SECRET", env),
    WORKBENCH_PUBLIC_URL: readEnv("WORKBENCH_PUBLIC_URL", env),
    WORKBENCH_SIGNUP: readEnv("WORKBENCH_SIGNUP", env),
    WORKBENCH_OIDC_ISSUER: readEnv("WORKBENCH_OIDC_ISSUER", env),
    WORKBENCH_OIDC_CLIENT_ID: readEnv("WORKBENCH_OIDC_CLIENT_ID", env),
    WORKBENCH_OIDC_CLIENT_SECRET: readEnv("WORKBENCH_OIDC_CLIENT_SECRET", env),
    WORKBENCH_OIDC_NAME: readEnv("WORKBENCH_OIDC_NAME", env),
  };
  if (e.WORKBENCH_MODE === "local") return { mode: "local" };
  if (!e.WORKBENCH_AUTH_SECRET) {
    throw new WorkbenchError("INVALID_INPUT", "WORKBENCH_AUTH_SECRET: team mode needs a secret of at least 32 characters (e.g. `openssl rand -hex 32`).");
  }
  const oidcParts = [e.WORKBENCH_OIDC_ISSUER, e.WORKBENCH_OIDC_CLIENT_ID, e.WORKBENCH_OIDC_CLIENT_SECRET];
  if (oidcParts.some(Boolean) && !oidcParts.every(Boolean)) {
    throw new WorkbenchError("INVALID_INPUT", "WORKBENCH_OIDC_ISSUER, WORKBENCH_OIDC_CLIENT_ID and WORKBENCH_OIDC_CLIENT_SECRET go together: set all three or none.");
  }
  const oidc = e.WORKBENCH_OIDC_ISSUER
    ? {
        issuer: e.WORKBENCH_OIDC_ISSUER,
        discoveryUrl: `${e.WORKBENCH_OIDC_ISSUER.replace(/\/+$/, "")}/.well-known/openid-configuration`,
        clientId: e.WORKBENCH_OIDC_CLIENT_ID!,
        clientSecret: e.WORKBENCH_OIDC_CLIENT_SECRET!,
        name: e.WORKBENCH_OIDC_NAME,
      }
    : null;
  return { mode: "team", secret: e.WORKBENCH_AUTH_SECRET, publicUrl: e.WORKBENCH_PUBLIC_URL, signup: e.WORKBENCH_SIGNUP, oidc };
}

/**
 * Fails closed: any WORKBENCH_MODE other than unset or "local" asks for sign-in (a misspelt
 * "Team" must not serve everyone; readAuthConfig then refuses it with a clear message).
 */
export function isTeamMode(env: EnvSource = process.env): boolean {
  // The raw value on purpose: this check never throws, and readAuthConfig names a bad value.
  const mode = env.WORKBENCH_MODE;
  return Boolean(mode) && mode !== "local";
}

/** Local mode serves one person on this machine: binding beyond loopback needs team mode. */
export function isLoopbackHost(host: string): boolean {
  return host === "127.0.0.1" || host === "localhost" || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** The name a Host header addresses, without its port (`[::1]:3000` → `::1`). */
export function hostnameOf(host: string): string {
  return host.startsWith("[") ? host.slice(1, host.indexOf("]")) : host.replace(/:\d+$/, "");
}
