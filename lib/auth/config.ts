/**
 * How this server authenticates, read once from the environment. Local mode (the default) is a
 * single person on 127.0.0.1 and needs no sign-in; team mode refuses every request that carries
 * no valid session or personal access token.
 */
import { z } from "zod";
import { WorkbenchError } from "../core/errors";

const envSchema = z.object({
  WORKBENCH_MODE: z.enum(["local", "team"]).default("local").describe("local (default, no sign-in, loopback only) or team"),
  WORKBENCH_AUTH_SECRET: z
    .string()
    .min(32, "must be at least 32 characters")
    .optional()
    .describe("Signs sessions and co-editing tokens; required in team mode"),
  WORKBENCH_PUBLIC_URL: z.url().optional().describe("The URL people open, e.g. https://workbench.example.com (team mode)"),
  WORKBENCH_SIGNUP: z
    .enum(["open", "closed"])
    .default("closed")
    .describe("closed: only the first account signs itself up (and becomes instance admin); admins create the rest"),
  WORKBENCH_OIDC_ISSUER: z.url().optional().describe("OpenID Connect issuer; discovery is read from <issuer>/.well-known/openid-configuration"),
  WORKBENCH_OIDC_CLIENT_ID: z.string().min(1).optional().describe("OIDC client id"),
  WORKBENCH_OIDC_CLIENT_SECRET: z.string().min(1).optional().describe("OIDC client secret"),
  WORKBENCH_OIDC_NAME: z.string().min(1).default("Single sign-on").describe("Label of the sign-in button"),
});

export interface OidcConfig {
  issuer: string;
  discoveryUrl: string;
  clientId: string;
  clientSecret: string;
  name: string;
}

export type AuthConfig =
  | { mode: "local" }
  | { mode: "team"; secret: string; publicUrl: string | undefined; signup: "open" | "closed"; oidc: OidcConfig | null };

/** The auth configuration of this environment; a team mode without a secret is refused, not weakened. */
export function readAuthConfig(env: Record<string, string | undefined> = process.env): AuthConfig {
  // Local mode reads nothing else, so a stray team variable cannot stop a local server.
  if (!env.WORKBENCH_MODE || env.WORKBENCH_MODE === "local") return { mode: "local" };
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new WorkbenchError("INVALID_INPUT", `${issue.path.join(".")}: ${issue.message}`);
  }
  const e = parsed.data;
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
export function isTeamMode(env: Record<string, string | undefined> = process.env): boolean {
  return Boolean(env.WORKBENCH_MODE) && env.WORKBENCH_MODE !== "local";
}

/** Local mode serves one person on this machine: binding beyond loopback needs team mode. */
export function isLoopbackHost(host: string): boolean {
  return host === "127.0.0.1" || host === "localhost" || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host);
}
