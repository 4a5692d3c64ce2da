/**
 * Team mode's OpenID Connect sign-in against a real (mock) provider: discovery, the authorization
 * code flow with PKCE, the callback, and an account and session for the person it names, even
 * with sign-up closed (the provider vouches for them).
 */
import { OAuth2Server } from "oauth2-mock-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as authGet, POST as authPost } from "../../app/api/auth/[...all]/route";
import { GET as me } from "../../app/api/v1/me/route";
import { enterTeamMode, leaveTeamMode } from "../helpers/team-mode";
import { accountWithToken } from "../helpers/team-mode";

const BASE = "http://127.0.0.1:3999";
const cookiesOf = (res: Response) => res.headers.getSetCookie().map((c) => c.split(";")[0]!);

describe("team mode: sign-in with an OIDC provider", () => {
  const provider = new OAuth2Server();

  beforeAll(async () => {
    await provider.issuer.keys.generate("RS256");
    await provider.start(0, "127.0.0.1");
    const claims = { sub: "oidc-user-42", email: "Olivia@Example.com", email_verified: true, name: "Olivia Oidc" };
    provider.service.on("beforeTokenSigning", (token) => Object.assign(token.payload, claims));
    provider.service.on("beforeUserinfo", (res) => {
      res.body = claims;
    });
    enterTeamMode({
      WORKBENCH_OIDC_ISSUER: provider.issuer.url!,
      WORKBENCH_OIDC_CLIENT_ID: "workbench",
      WORKBENCH_OIDC_CLIENT_SECRET: "workbench-secret",
      WORKBENCH_OIDC_NAME: "Example SSO",
    });
    await accountWithToken("first@example.com"); // sign-up is now closed
  });
  afterAll(async () => {
    for (const k of ["WORKBENCH_OIDC_ISSUER", "WORKBENCH_OIDC_CLIENT_ID", "WORKBENCH_OIDC_CLIENT_SECRET", "WORKBENCH_OIDC_NAME"]) delete process.env[k];
    leaveTeamMode();
    await provider.stop();
  });

  it("signs a person in through the provider and gives them a session", async () => {
    const start = await authPost(
      new Request(`${BASE}/api/auth/sign-in/social`, { method: "POST", headers: { "content-type": "application/json", origin: BASE }, body: JSON.stringify({ provider: "oidc", callbackURL: "/" }) }),
    );
    expect(start.status).toBe(200);
    const { url } = (await start.json()) as { url: string };
    expect(url.startsWith(provider.issuer.url!)).toBe(true);
    expect(new URL(url).searchParams.get("code_challenge_method")).toBe("S256");
    const stateCookies = cookiesOf(start);

    // The provider approves at once and sends the browser back with a code.
    const approved = await fetch(url, { redirect: "manual" });
    const back = new URL(approved.headers.get("location")!);
    expect(back.pathname).toBe("/api/auth/callback/oidc");

    const callback = await authGet(new Request(`${BASE}${back.pathname}${back.search}`, { headers: { cookie: stateCookies.join("; ") } }));
    expect(callback.status).toBe(302);
    const session = cookiesOf(callback).filter((c) => c.startsWith("workbench.session_token="));
    expect(session).toHaveLength(1);

    const who = await me(new Request(`${BASE}/api/v1/me`, { headers: { cookie: session[0]! } }), { params: Promise.resolve({}) });
    expect(await who.json()).toMatchObject({ mode: "team", account: { email: "olivia@example.com", name: "Olivia Oidc", isAdmin: false, via: "session" } });
  });
});
