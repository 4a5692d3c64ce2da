/**
 * Team mode: a new server is claimed by whoever configured it, not by its first visitor. The
 * first account (the instance administrator) needs the setup code derived from the server's
 * secret, which `workbench serve` prints; after it, sign-up is closed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as authPost } from "../../app/api/auth/[...all]/route";
import { setupCode, SETUP_CODE_HEADER } from "../../lib/auth/setup-code";
import { findAccountByEmail } from "../../lib/db/repositories/accounts";
import { enterTeamMode, leaveTeamMode, TEST_AUTH_SECRET } from "../helpers/team-mode";

const BASE = "http://127.0.0.1:3999";
const signUp = (email: string, headers: Record<string, string> = {}) =>
  authPost(
    new Request(`${BASE}/api/auth/sign-up/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: BASE, ...headers },
      body: JSON.stringify({ email, name: email.split("@")[0], password: "correct horse battery" }),
    }),
  );

describe("team mode: the first account", () => {
  beforeAll(() => enterTeamMode());
  afterAll(() => leaveTeamMode());

  it("is refused without the setup code, or with a wrong one", async () => {
    expect((await signUp("mallory@example.com")).status).toBe(403);
    expect((await signUp("mallory@example.com", { [SETUP_CODE_HEADER]: "guess-guess-gues" })).status).toBe(403);
    expect(await findAccountByEmail("mallory@example.com")).toBeNull();
  });

  it("is created with the setup code and becomes instance admin; then sign-up is closed", async () => {
    const code = setupCode(TEST_AUTH_SECRET);
    expect(code).toMatch(/^[\w-]{16}$/);
    expect((await signUp("ops@example.com", { [SETUP_CODE_HEADER]: code })).status).toBe(200);
    expect((await findAccountByEmail("ops@example.com"))?.isAdmin).toBe(true);
    const second = await signUp("next@example.com", { [SETUP_CODE_HEADER]: code });
    expect(second.status).toBe(403);
    expect((await second.json()).error.message).toMatch(/Sign-up is closed/);
  });

  it("keeps the auth library's other endpoints closed", async () => {
    for (const path of ["/api/auth/update-user", "/api/auth/api-key/create", "/api/auth/delete-user"]) {
      const res = await authPost(new Request(`${BASE}${path}`, { method: "POST", headers: { "content-type": "application/json", origin: BASE }, body: "{}" }));
      expect(res.status, path).toBe(404);
    }
  });
});
