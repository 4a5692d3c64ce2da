/**
 * Team mode, every API route: found by walking app/api/v1, so a route added later without a gate
 * fails here. Without credentials each answers 401; a project the caller is not a member of
 * answers exactly like a missing one; a viewer cannot write.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setMember } from "../../lib/db/repositories/accounts";
import { MCP_HTTP_ERRORS } from "../../lib/mcp/http";
import { addProject } from "../../lib/projects/add-project";
import { accountWithToken, enterTeamMode, leaveTeamMode } from "../helpers/team-mode";
import { copySampleProject, removeTempDirs, REPO_ROOT } from "../helpers/project-builder";

const API = path.join(REPO_ROOT, "app", "api", "v1");
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
/** Project routes a viewer may call with POST: they compute, they do not write. */
const VIEWER_POSTS = new Set(["projects/[id]/loader"]);

interface Surface {
  rel: string;
  method: (typeof METHODS)[number];
  handler: (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
}

function routeFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name.startsWith("_") ? [] : routeFiles(p);
    return e.name === "route.ts" ? [p] : [];
  });
}

async function surfaces(): Promise<Surface[]> {
  const out: Surface[] = [];
  for (const file of routeFiles(API)) {
    const rel = path.relative(API, path.dirname(file)).split(path.sep).join("/");
    const mod = (await import(file)) as Record<string, unknown>;
    for (const method of METHODS) if (typeof mod[method] === "function") out.push({ rel, method, handler: mod[method] as Surface["handler"] });
  }
  return out;
}

function call(s: Surface, projectId: string, headers: Record<string, string> = {}): Promise<Response> {
  const params: Record<string, string> = {};
  for (const m of s.rel.matchAll(/\[(\w+)\]/g)) params[m[1]!] = m[1] === "id" ? projectId : `missing-${m[1]}`;
  const url = `http://127.0.0.1:3999/api/v1/${s.rel.replace(/\[(\w+)\]/g, (_, k: string) => params[k]!)}`;
  const init: RequestInit = { method: s.method, headers: { "content-type": "application/json", ...headers } };
  if (s.method !== "GET" && s.method !== "DELETE") init.body = "{}";
  return s.handler(new Request(url, init), { params: Promise.resolve(params) });
}

const isProjectRoute = (s: Surface) => s.rel.startsWith("projects/[id]");

describe("team mode: every API surface checks who is asking", () => {
  let all: Surface[] = [];
  let projectId = "";
  let outsider: Record<string, string> = {};
  let viewer: Record<string, string> = {};

  beforeAll(async () => {
    enterTeamMode();
    await accountWithToken("admin@example.com"); // the first account: instance admin
    outsider = (await accountWithToken("outsider@example.com")).headers;
    const v = await accountWithToken("viewer@example.com");
    viewer = v.headers;
    projectId = (await addProject({ path: copySampleProject() })).id;
    await setMember(projectId, v.id, "viewer");
    all = await surfaces();
  });
  afterAll(() => {
    leaveTeamMode();
    removeTempDirs();
  });

  it("finds the routes it checks", () => {
    expect(all.length).toBeGreaterThan(50);
    expect(all.filter(isProjectRoute).length).toBeGreaterThan(40);
  });

  it("answers 401 to a request without a session or token, on every route", async () => {
    for (const s of all) {
      const res = await call(s, projectId);
      expect.soft(res.status, `${s.method} ${s.rel}`).toBe(401);
      // The MCP endpoint speaks JSON-RPC, so its refusal is a JSON-RPC error with its own code.
      expect.soft((await res.json()).error.code, `${s.method} ${s.rel}`).toBe(s.rel === "mcp" ? MCP_HTTP_ERRORS.unauthenticated : "UNAUTHENTICATED");
    }
  });

  it("answers 401 to a forged or revoked token", async () => {
    const s = all.find((x) => x.rel === "projects" && x.method === "GET")!;
    expect((await call(s, projectId, { authorization: "Bearer wb_forgedforgedforgedforged" })).status).toBe(401);
    expect((await call(s, projectId, { cookie: "workbench.session_token=forged.forged" })).status).toBe(401);
  });

  it("answers a project the caller cannot see exactly like a missing one", async () => {
    for (const s of all.filter(isProjectRoute)) {
      const hidden = await call(s, projectId, outsider);
      const missing = await call(s, "no-such-project", outsider);
      const label = `${s.method} ${s.rel}`;
      expect.soft(hidden.status, label).toBe(404);
      expect.soft(await hidden.json(), label).toEqual(await missing.json());
    }
  });

  it("refuses every write to a viewer with 403, and lets every read through the gate", async () => {
    for (const s of all.filter(isProjectRoute)) {
      const res = await call(s, projectId, viewer);
      const body = (await res.json().catch(() => ({}))) as { error?: { code: string; message: string } };
      const label = `${s.method} ${s.rel}`;
      if (s.method === "GET" || VIEWER_POSTS.has(s.rel)) {
        expect.soft([401, 403], label).not.toContain(res.status);
        expect.soft(body.error?.message, label).not.toBe("No such project.");
      } else {
        expect.soft(res.status, label).toBe(403);
        expect.soft(body.error?.code, label).toBe("FORBIDDEN");
      }
    }
  });
});
