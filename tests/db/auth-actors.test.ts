/**
 * Team mode: the history names the account that acted, never a name from the request body: on
 * packet creation, revision saves (which also write a review event) and duplication as on
 * comments and review steps. And nobody can rename themselves to another member's name through
 * the auth library's endpoints (only the ones the Workbench uses are open).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as authPost } from "../../app/api/auth/[...all]/route";
import { POST as createPacketRoute } from "../../app/api/v1/projects/[id]/packets/route";
import { POST as duplicateRoute } from "../../app/api/v1/projects/[id]/packets/[packetId]/duplicate/route";
import { GET as listRevisionsRoute, POST as saveRevisionRoute } from "../../app/api/v1/projects/[id]/packets/[packetId]/revisions/route";
import { POST as commentRoute } from "../../app/api/v1/projects/[id]/packets/[packetId]/comments/route";
import { GET as me } from "../../app/api/v1/me/route";
import { setMember } from "../../lib/db/repositories/accounts";
import { addProject } from "../../lib/projects/add-project";
import { copySampleProject, removeTempDirs } from "../helpers/project-builder";
import { accountWithToken, enterTeamMode, leaveTeamMode } from "../helpers/team-mode";

const BASE = "http://127.0.0.1:3999";
type Handler<P> = (req: Request, ctx: { params: Promise<P> }) => Promise<Response>;

function call<P>(h: Handler<P>, params: P, headers: Record<string, string>, body?: unknown, method?: string): Promise<Response> {
  const req = new Request(`${BASE}/api/v1/x`, {
    method: method ?? (body === undefined ? "GET" : "POST"),
    headers: { "content-type": "application/json", ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return h(req, { params: Promise.resolve(params) });
}

describe("team mode: who acted is the account, not the body", () => {
  let projectId = "";
  let editor: { id: string; headers: Record<string, string> };

  beforeAll(async () => {
    enterTeamMode();
    await accountWithToken("admin@example.com", "Ada Admin");
    const e = await accountWithToken("eve@example.com", "Eve Editor");
    editor = { id: e.id, headers: e.headers };
    projectId = (await addProject({ path: copySampleProject() })).id;
    await setMember(projectId, e.id, "editor");
  });
  afterAll(() => {
    leaveTeamMode();
    removeTempDirs();
  });

  it("records the account's name on a new packet, a saved revision and a duplicate", async () => {
    const created = await call(createPacketRoute, { id: projectId }, editor.headers, { kind: "packet", author: "Ada Admin" });
    expect(created.status).toBe(201);
    const packetId = ((await created.json()) as { packet: { id: string } }).packet.id;

    const saved = await call(saveRevisionRoute, { id: projectId, packetId }, editor.headers, { markdown: "## Context Packet\n\n**Task**: x\n", author: "Ada Admin" });
    expect(saved.status).toBe(201);

    const dup = await call(duplicateRoute, { id: projectId, packetId }, editor.headers, { author: "Ada Admin" });
    expect(dup.status).toBe(201);
    const dupId = ((await dup.json()) as { packet: { id: string } }).packet.id;

    const revs = ((await (await call(listRevisionsRoute, { id: projectId, packetId }, editor.headers)).json()) as { revisions: { author: string | null }[] }).revisions;
    const dupRevs = ((await (await call(listRevisionsRoute, { id: projectId, packetId: dupId }, editor.headers)).json()) as { revisions: { author: string | null }[] }).revisions;
    expect.soft(revs.map((r) => r.author)).not.toContain("Ada Admin");
    expect.soft(dupRevs.map((r) => r.author)).not.toContain("Ada Admin");
  });

  it("does not let an account rename itself to another member's name", async () => {
    const signIn = await authPost(
      new Request(`${BASE}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: BASE },
        body: JSON.stringify({ email: "eve@example.com", password: "correct horse battery" }),
      }),
    );
    expect(signIn.status).toBe(200);
    const cookie = signIn.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const rename = await authPost(new Request(`${BASE}/api/auth/update-user`, { method: "POST", headers: { "content-type": "application/json", origin: BASE, cookie }, body: JSON.stringify({ name: "Ada Admin" }) }));
    const who = (await (await call(me, {}, { cookie })).json()) as { account: { name: string } };
    const packet = await call(createPacketRoute, { id: projectId }, editor.headers, { kind: "packet" });
    const packetId = ((await packet.json()) as { packet: { id: string } }).packet.id;
    const c = await call(commentRoute, { id: projectId, packetId }, { cookie }, { section: "Task", body: "LGTM", author: "ignored" });
    const author = ((await c.json()) as { comment: { author: string } }).comment.author;
    expect.soft(rename.status, "update-user accepted a rename").not.toBe(200);
    expect.soft(who.account.name).toBe("Eve Editor");
    expect.soft(author).not.toBe("Ada Admin");
  });
});
