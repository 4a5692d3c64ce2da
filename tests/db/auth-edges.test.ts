/**
 * Team mode at the edges of authentication:
 * - a cookie-authenticated write from another origin, or with a non-JSON body (what an HTML form
 *   can send), is refused;
 * - closed sign-up answers a registered email and an unknown one alike;
 * - a personal access token cannot mint further tokens.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as authPost } from "../../app/api/auth/[...all]/route";
import { POST as addMember } from "../../app/api/v1/projects/[id]/members/route";
import { POST as createPacketRoute } from "../../app/api/v1/projects/[id]/packets/route";
import { POST as newToken } from "../../app/api/v1/me/tokens/route";
import { setMember } from "../../lib/db/repositories/accounts";
import { addProject } from "../../lib/projects/add-project";
import { copySampleProject, removeTempDirs } from "../helpers/project-builder";
import { accountWithToken, enterTeamMode, leaveTeamMode } from "../helpers/team-mode";

const BASE = "http://127.0.0.1:3999";
const EVIL = "https://evil.example";

describe("team mode: authentication edges", () => {
  let projectId = "";
  let adminCookie = "";
  let editorToken: Record<string, string> = {};

  beforeAll(async () => {
    enterTeamMode();
    await accountWithToken("admin@example.com", "Ada Admin");
    const e = await accountWithToken("eve@example.com", "Eve Editor");
    editorToken = e.headers;
    await accountWithToken("mallory@example.com", "Mallory");
    projectId = (await addProject({ path: copySampleProject() })).id;
    await setMember(projectId, e.id, "editor");
    const signIn = await authPost(
      new Request(`${BASE}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: BASE },
        body: JSON.stringify({ email: "admin@example.com", password: "correct horse battery" }),
      }),
    );
    adminCookie = signIn.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
  });
  afterAll(() => {
    leaveTeamMode();
    removeTempDirs();
  });

  it("refuses a cross-origin, form-encodable write carrying only the session cookie", async () => {
    // What <form enctype="text/plain"> can post: name={"email":"mallory@example.com","role":"admin","x":" value="}
    const body = '{"email":"mallory@example.com","role":"admin","x":"="}';
    const res = await addMember(
      new Request(`${BASE}/api/v1/projects/${projectId}/members`, { method: "POST", headers: { "content-type": "text/plain", origin: EVIL, cookie: adminCookie, "sec-fetch-site": "cross-site" }, body }),
      { params: Promise.resolve({ id: projectId }) },
    );
    expect.soft(res.status).toBe(403);
    const res2 = await createPacketRoute(
      new Request(`${BASE}/api/v1/projects/${projectId}/packets`, { method: "POST", headers: { "content-type": "text/plain", origin: EVIL, cookie: adminCookie }, body: '{"kind":"packet"}' }),
      { params: Promise.resolve({ id: projectId }) },
    );
    expect.soft(res2.status).toBe(403);
  });

  it("does not tell a registered email from an unknown one on closed sign-up", async () => {
    const signUp = (email: string) =>
      authPost(
        new Request(`${BASE}/api/auth/sign-up/email`, {
          method: "POST",
          headers: { "content-type": "application/json", origin: BASE },
          body: JSON.stringify({ email, name: "x", password: "long enough password" }),
        }),
      );
    const known = await signUp("admin@example.com");
    const unknown = await signUp("nobody@example.com");
    const k = { status: known.status, body: await known.text() };
    const u = { status: unknown.status, body: await unknown.text() };
    expect(k).toEqual(u);
  });

  it("does not let a personal access token mint another token", async () => {
    const res = await newToken(
      new Request(`${BASE}/api/v1/me/tokens`, { method: "POST", headers: { "content-type": "application/json", ...editorToken }, body: JSON.stringify({ name: "persist", expiresInDays: null }) }),
      { params: Promise.resolve({}) },
    );
    expect(res.status).toBe(403);
  });
});
