/**
 * `workbench account …` bootstraps team mode from the server's shell, and `workbench api` reaches a
 * team server with the token it issued.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as me } from "../../app/api/v1/me/route";
import { GET as listProjects } from "../../app/api/v1/projects/route";
import { approverKeysOf, findAccountByEmail, projectRole } from "../../lib/db/repositories/accounts";
import { addProject } from "../../lib/projects/add-project";
import { makeTempDir, removeTempDirs } from "../helpers/project-builder";
import { runWorkbench } from "../helpers/run-cli";
import { enterTeamMode, leaveTeamMode } from "../helpers/team-mode";

describe("workbench account and workbench api", () => {
  let env: NodeJS.ProcessEnv = process.env;
  let server: http.Server;
  let url = "";

  beforeAll(async () => {
    enterTeamMode();
    env = { ...process.env };
    // The two routes the CLI calls, served in this (team mode) process.
    const routes: Record<string, (req: Request, ctx: { params: Promise<Record<string, never>> }) => Promise<Response>> = { "/api/v1/me": me, "/api/v1/projects": listProjects };
    server = http.createServer(async (req, res) => {
      const handler = routes[req.url ?? ""];
      const headers = new Headers(Object.entries(req.headers).flatMap(([k, v]) => (typeof v === "string" ? [[k, v] as [string, string]] : [])));
      const answer = handler ? await handler(new Request(`http://127.0.0.1${req.url}`, { headers }), { params: Promise.resolve({}) }) : new Response("{}", { status: 404 });
      res.writeHead(answer.status, { "content-type": "application/json" }).end(await answer.text());
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
    leaveTeamMode();
    removeTempDirs();
  });

  it("creates the first admin and a member from stdin passwords, never from arguments", async () => {
    const first = await runWorkbench(["account", "create", "--email", "Ops@Example.com", "--name", "Ops"], { env, input: "a long enough password\n" });
    expect(first.stderr).toBe("");
    expect(first.stdout).toBe("created ops@example.com (instance admin)\n");
    const second = await runWorkbench(["account", "create", "--email", "agent-owner@example.com", "--name", "Agent Owner"], { env, input: "another long password" });
    expect(second.stdout).toBe("created agent-owner@example.com\n");
    const noStdin = await runWorkbench(["account", "create", "--email", "x@example.com", "--name", "X"], { env });
    expect(noStdin.code).toBe(1);
    const short = await runWorkbench(["account", "create", "--email", "y@example.com", "--name", "Y"], { env, input: "short" });
    expect(short.stderr).toMatch(/password.*at least 10/);
  });

  it("sets roles, binds keys and issues a token the API accepts", async () => {
    const project = await addProject({ path: makeTempDir() });
    const role = await runWorkbench(["account", "role", "--project", project.id, "--email", "agent-owner@example.com", "--role", "editor"], { env });
    expect(role.code).toBe(0);
    const owner = (await findAccountByEmail("agent-owner@example.com"))!;
    expect(await projectRole(owner.id, project.id)).toBe("editor");
    expect((await runWorkbench(["account", "role", "--project", project.id, "--email", "agent-owner@example.com", "--role", "owner"], { env })).code).toBe(1);

    expect((await runWorkbench(["account", "bind-key", "alice", "--email", "agent-owner@example.com"], { env })).code).toBe(0);
    expect(await approverKeysOf(owner.id)).toEqual(["alice"]);

    const token = await runWorkbench(["account", "token", "--email", "agent-owner@example.com", "--name", "ci-agent", "--days", "7"], { env });
    expect(token.stdout).toMatch(/^wb_\S+\n$/);
    const apiEnv = { ...env, WORKBENCH_URL: url, WORKBENCH_TOKEN: token.stdout.trim() };
    const who = await runWorkbench(["api", "GET", "/api/v1/me"], { env: apiEnv });
    expect(JSON.parse(who.stdout)).toMatchObject({ mode: "team", account: { email: "agent-owner@example.com", via: "token" } });
    const projects = await runWorkbench(["api", "GET", "/api/v1/projects"], { env: apiEnv });
    expect(JSON.parse(projects.stdout).projects.map((p: { id: string }) => p.id)).toEqual([project.id]);
    const anonymous = await runWorkbench(["api", "GET", "/api/v1/me"], { env: { ...env, WORKBENCH_URL: url } });
    expect(anonymous.code).toBe(1);
    expect(anonymous.stderr).toBe("HTTP 401\n");
  });
});
