/**
 * Team mode beyond the per-route gate: routes that name no project narrow what they return to
 * what the caller may see; accounts, tokens, sessions and approvals follow their rules.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as getJob } from "../../app/api/v1/jobs/[id]/route";
import { GET as handoff } from "../../app/api/v1/packets/[packetId]/route";
import { GET as palette } from "../../app/api/v1/palette/route";
import { GET as listProjects, POST as addProjectRoute } from "../../app/api/v1/projects/route";
import { POST as comment } from "../../app/api/v1/projects/[id]/packets/[packetId]/comments/route";
import { POST as review } from "../../app/api/v1/projects/[id]/packets/[packetId]/review/route";
import { POST as decide } from "../../app/api/v1/projects/[id]/proposals/[proposalId]/decision/route";
import { GET as me } from "../../app/api/v1/me/route";
import { DELETE as revoke } from "../../app/api/v1/me/tokens/[tokenId]/route";
import { GET as listTokens, POST as newToken } from "../../app/api/v1/me/tokens/route";
import { POST as authPost } from "../../app/api/auth/[...all]/route";
import { GET as search } from "../../app/api/v1/search/route";
import { getAuth } from "../../lib/auth/instance";
import { getAccount, setMember } from "../../lib/db/repositories/accounts";
import { startIndexJob, waitForJob } from "../../lib/indexer/jobs";
import { createProjectPacket } from "../../lib/packets/service";
import { addProject } from "../../lib/projects/add-project";
import { accountWithToken, enterTeamMode, leaveTeamMode } from "../helpers/team-mode";
import { copySampleProject, removeTempDirs } from "../helpers/project-builder";

type Handler<P> = (req: Request, ctx: { params: Promise<P> }) => Promise<Response>;
const BASE = "http://127.0.0.1:3999";

function ask<P>(h: Handler<P>, params: P, headers: Record<string, string>, init: { method?: string; url?: string; body?: unknown } = {}): Promise<Response> {
  const req = new Request(BASE + (init.url ?? "/api/v1/x"), {
    method: init.method ?? (init.body === undefined ? "GET" : "POST"),
    headers: { "content-type": "application/json", ...headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return h(req, { params: Promise.resolve(params) });
}

async function sessionCookie(email: string): Promise<string> {
  const res = await authPost(
    new Request(`${BASE}/api/auth/sign-in/email`, { method: "POST", headers: { "content-type": "application/json", origin: BASE }, body: JSON.stringify({ email, password: "correct horse battery" }) }),
  );
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

describe("team mode access beyond the route gate", () => {
  let projectId = "";
  let jobId = "";
  let packetId = "";
  let admin = { id: "", headers: {} as Record<string, string> };
  let outsider = admin;
  let viewer = admin;
  let editor = admin;

  beforeAll(async () => {
    enterTeamMode();
    admin = await accountWithToken("admin@example.com");
    outsider = await accountWithToken("outsider@example.com");
    viewer = await accountWithToken("viewer@example.com");
    editor = await accountWithToken("editor@example.com", "Edith Editor");
    projectId = (await addProject({ path: copySampleProject() })).id;
    await setMember(projectId, viewer.id, "viewer");
    await setMember(projectId, editor.id, "editor");
    jobId = (await startIndexJob(projectId)).id;
    await waitForJob(projectId);
    packetId = (await createProjectPacket(projectId, { markdown: "## Context Packet\n\n**Task**: Persist export jobs\n" })).id;
  });
  afterAll(() => {
    leaveTeamMode();
    removeTempDirs();
  });

  it("makes the first account the instance admin, and no one else", async () => {
    expect((await getAccount(admin.id))?.isAdmin).toBe(true);
    expect((await getAccount(outsider.id))?.isAdmin).toBe(false);
  });

  it("lists only the projects a person is a member of", async () => {
    const names = async (h: Record<string, string>) => ((await (await ask(listProjects, {}, h)).json()) as { projects: { id: string }[] }).projects.map((p) => p.id);
    expect(await names(outsider.headers)).toEqual([]);
    expect(await names(viewer.headers)).toEqual([projectId]);
    expect(await names(admin.headers)).toEqual([projectId]);
  });

  it("lets only instance admins add projects", async () => {
    const res = await ask(addProjectRoute, {}, editor.headers, { body: { path: "/tmp" } });
    expect(res.status).toBe(403);
  });

  it("answers a hidden job and a hidden packet like missing ones", async () => {
    const hiddenJob = await ask(getJob, { id: jobId }, outsider.headers);
    const missingJob = await ask(getJob, { id: "no-such-job" }, outsider.headers);
    expect(hiddenJob.status).toBe(404);
    expect(await hiddenJob.json()).toEqual(await missingJob.json());
    expect((await ask(getJob, { id: jobId }, viewer.headers)).status).toBe(200);

    const hidden = await ask(handoff, { packetId }, outsider.headers);
    expect(hidden.status).toBe(404);
    expect((await hidden.json()).error.message).toBe(`No packet ${packetId}.`);
    // A member learns the truth: it exists but was never emitted (409, not the 404 a missing packet gets).
    const member = await ask(handoff, { packetId }, viewer.headers);
    expect(member.status).toBe(409);
    expect((await member.json()).error).toMatchObject({ code: "NOT_EMITTED", message: expect.stringContaining(`Packet ${packetId} exists but has not been emitted`) });
  });

  it("searches and jumps only within visible projects", async () => {
    const hits = async (h: Record<string, string>) => (await (await ask(search, {}, h, { url: "/api/v1/search?q=export" })).json()) as { total: number; facets: { project: unknown[] } };
    const seen = await hits(viewer.headers);
    expect(seen.total).toBeGreaterThan(0);
    const unseen = await hits(outsider.headers);
    expect(unseen.total).toBe(0);
    expect(unseen.facets.project).toEqual([]);
    const targets = async (h: Record<string, string>) => (await (await ask(palette, {}, h)).json()) as { projects: unknown[]; packets: unknown[] };
    expect((await targets(outsider.headers)).projects).toEqual([]);
    expect((await targets(outsider.headers)).packets).toEqual([]);
    expect((await targets(viewer.headers)).packets.length).toBe(1);
  });

  it("records the account's name on comments and review steps, whatever the body claims", async () => {
    const res = await ask(comment, { id: projectId, packetId }, editor.headers, { body: { body: "Looks right", section: "Task", author: "Someone Else" } });
    expect(res.status).toBe(201);
    expect((await res.json()).comment.author).toBe("Edith Editor");
    const sent = await ask(review, { id: projectId, packetId }, editor.headers, { body: { action: "request_review", actor: "Mallory" } });
    expect(sent.status).toBe(200);
    expect((await sent.json()).events.at(-1).actor).toBe("Edith Editor");
  });

  it("needs the approver role to approve a brief", async () => {
    const res = await ask(review, { id: projectId, packetId }, editor.headers, { body: { action: "approve", actor: "x", revision: 1 } });
    expect(res.status).toBe(403);
    await setMember(projectId, editor.id, "approver");
    const ok = await ask(review, { id: projectId, packetId }, editor.headers, { body: { action: "request_changes", actor: "x", revision: 1 } });
    expect(ok.status).toBe(200);
    await setMember(projectId, editor.id, "editor");
  });

  it("lets an approver sign only with a key bound to their account", async () => {
    await setMember(projectId, viewer.id, "approver");
    const res = await ask(decide, { id: projectId, proposalId: "p" }, viewer.headers, { body: { decision: "approve", rationale: "ok", keyId: "alice" } });
    expect(res.status).toBe(403);
    expect((await res.json()).error.message).toBe("The signing key alice is not bound to your account.");
    await setMember(projectId, viewer.id, "viewer");
  });

  it("issues tokens shown once (from a session, never from another token), lists them without their value, and revokes them", async () => {
    expect((await ask(newToken, {}, editor.headers, { body: { name: "minted", expiresInDays: null } })).status).toBe(403);
    const session = { cookie: await sessionCookie("editor@example.com") };
    const created = await ask(newToken, {}, session, { body: { name: "ci-agent", expiresInDays: 30 } });
    expect(created.status).toBe(201);
    const { token } = (await created.json()) as { token: { id: string; token: string } };
    expect(token.token).toMatch(/^wb_/);
    const fresh = { authorization: `Bearer ${token.token}` };
    expect((await (await ask(me, {}, fresh)).json()).account.email).toBe("editor@example.com");
    const listed = JSON.stringify(await (await ask(listTokens, {}, editor.headers)).json());
    expect(listed).toContain("ci-agent");
    expect(listed).not.toContain(token.token);
    // Someone else's token cannot be revoked (and answers like a missing one).
    expect((await ask(revoke, { tokenId: token.id }, outsider.headers, { method: "DELETE" })).status).toBe(404);
    expect((await ask(revoke, { tokenId: token.id }, editor.headers, { method: "DELETE" })).status).toBe(204);
    expect((await ask(me, {}, fresh)).status).toBe(401);
  });

  it("signs in with email and password into a session cookie, and refuses a wrong password", async () => {
    const signIn = (password: string) =>
      authPost(new Request(`${BASE}/api/auth/sign-in/email`, { method: "POST", headers: { "content-type": "application/json", origin: BASE }, body: JSON.stringify({ email: "viewer@example.com", password }) }));
    expect((await signIn("wrong password!")).status).toBe(401);
    const res = await signIn("correct horse battery");
    expect(res.status).toBe(200);
    const cookie = res.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    expect(cookie).toMatch(/^workbench\.session_token=/);
    const who = await (await ask(me, {}, { cookie })).json();
    expect(who).toMatchObject({ mode: "team", account: { email: "viewer@example.com", via: "session" } });
  });

  it("keeps sign-up closed once the first account exists", async () => {
    const auth = await getAuth();
    await expect(auth.api.signUpEmail({ body: { email: "stranger@example.com", name: "Stranger", password: "long enough password" } })).rejects.toThrow(/Sign-up is closed/);
  });
});
