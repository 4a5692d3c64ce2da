/**
 * The agent loop through MCP, in process (the SDK's in-memory transport): an agent drafts,
 * revises (a stale base is refused, naming the newer revision), asks for review and waits on
 * the server; a person approves through the library and the wait resolves at once with the
 * approved text. Writes carry the agent, and the activity list shows them. In team mode every
 * tool checks the caller's role as the API does. The read tools answer as their library and CLI
 * counterparts.
 */
import fs from "node:fs";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as activityRoute } from "../../app/api/v1/projects/[id]/activity/route";
import type { Principal } from "../../lib/auth/principal";
import { listAgentActivity } from "../../lib/collab/activity";
import { reviewWaiterCount } from "../../lib/collab/review-events";
import { reviewHistory, reviewPacket } from "../../lib/collab/service";
import { getAccount, setMember } from "../../lib/db/repositories/accounts";
import { transitionReview } from "../../lib/db/repositories/collab";
import { listRuns } from "../../lib/db/repositories/runs";
import { runFindings } from "../../lib/deep-context/service";
import { startIndexJob, waitForJob } from "../../lib/indexer/jobs";
import type { McpCallerContext } from "../../lib/mcp/context";
import { findingsWindowQuery } from "../../lib/mcp/schemas";
import { HANDOFF_POLL_MS } from "../../lib/mcp/tools/get-handoff";
import { createWorkbenchMcpServer } from "../../lib/mcp/server";
import { memoryDesk } from "../../lib/memory/desk";
import { listRevisions } from "../../lib/packets/service";
import { decisionJson } from "../../lib/policy/decision-json";
import { evaluatePolicyFiles } from "../../lib/policy/evaluate";
import { addProject } from "../../lib/projects/add-project";
import { goldenCase } from "../helpers/goal-golden";
import { copySampleProject, FIXTURES, removeTempDirs } from "../helpers/project-builder";
import { accountWithToken, enterTeamMode, leaveTeamMode } from "../helpers/team-mode";

const BRIEF = fs.readFileSync(path.join(FIXTURES, "packets", "clean-brief.md"), "utf8");
const REVISED = BRIEF.replace("Time zones other than UTC", "Time zones other than UTC\n- Schedules finer than one minute");

type Structured = Record<string, any>;
const text = (r: CallToolResult) => (r.content[0] as { text: string }).text;

async function connect(ctx?: McpCallerContext): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createWorkbenchMcpServer(ctx).connect(serverSide);
  const client = new Client({ name: "mcp-loop-test", version: "1.0.0" });
  await client.connect(clientSide);
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<Structured> {
  const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(r.isError, `${name}: ${text(r)}`).toBeFalsy();
  return r.structuredContent as Structured;
}

async function refused(client: Client, name: string, args: Record<string, unknown>): Promise<string> {
  const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(r.isError, JSON.stringify(r)).toBe(true);
  return text(r);
}

afterAll(removeTempDirs);

let root = "";
let projectId = "";

beforeAll(async () => {
  root = copySampleProject();
  projectId = (await addProject({ path: root })).id;
  await startIndexJob(projectId);
  await waitForJob(projectId);
}, 120_000);

describe("the loop over MCP, as the stdio server (local, no token)", () => {
  let client: Client;
  let packetId = "";

  beforeAll(async () => {
    client = await connect();
  });
  afterAll(() => client?.close());

  it("draft -> update (a stale base is refused) -> request review -> get_handoff resolves on the approval", async () => {
    const drafted = await call(client, "draft_packet", { project: projectId, kind: "brief", markdown: BRIEF, topic: "SKILL-9" });
    packetId = drafted.packet;
    expect(drafted).toMatchObject({ projectId, kind: "brief", revision: 1, reviewStatus: "draft", emittable: true, url: `/projects/${projectId}/packets/${packetId}` });

    expect((await call(client, "update_packet", { packet: packetId, markdown: REVISED, baseRevision: 1, note: "narrower scope" })).revision).toBe(2);
    expect(await refused(client, "update_packet", { packet: packetId, markdown: BRIEF, baseRevision: 1 })).toMatch(/^baseRevision: the packet changed since r1: r2 is the latest, saved by local \(agent stdio agent\)/);

    const asked = await call(client, "request_review", { packet: packetId, note: "ready" });
    expect(asked).toMatchObject({ reviewStatus: "in_review", revision: 2, waitingOn: expect.stringMatching(/reviewer/) });
    expect(await call(client, "get_handoff", { packet: packetId })).toMatchObject({ approved: false, markdown: null, reviewStatus: "in_review" });

    const waiting = call(client, "get_handoff", { packet: packetId, waitSeconds: 60 });
    await expect.poll(reviewWaiterCount, { interval: 5 }).toBe(1);
    const approvedAt = Date.now();
    await reviewPacket(projectId, packetId, { action: "approve", actor: "Ann", revision: 2 });
    const got = await waiting;
    const afterApproval = Date.now() - approvedAt;
    console.info(`get_handoff returned ${afterApproval} ms after the approval`);
    expect(afterApproval).toBeLessThan(1000);
    expect(got).toMatchObject({ approved: true, approvedRevision: 2, markdown: REVISED, reviewStatus: "approved", waitingOn: null, lastDecision: { actor: "Ann", toStatus: "approved" } });
    expect(reviewWaiterCount()).toBe(0);

    // By topic: the newest packet linked to it.
    expect(await call(client, "get_handoff", { project: projectId, topic: "SKILL-9" })).toMatchObject({ packet: packetId, markdown: REVISED });
  });

  it("a decision made by another process (no in-process event) ends the wait within the poll interval", async () => {
    const { packet } = await call(client, "draft_packet", { project: projectId, kind: "brief", markdown: BRIEF });
    await call(client, "request_review", { packet });
    const waiting = call(client, "get_handoff", { packet, waitSeconds: 60 });
    await expect.poll(reviewWaiterCount, { interval: 5 }).toBe(1);
    const decidedAt = Date.now();
    // The row as another server's dashboard writes it: the repository alone publishes nothing here.
    await transitionReview(packet, { from: "in_review", to: "changes_requested", actor: "Bea", revision: 1, note: "name the runner", approvedNumber: null });
    const got = await waiting;
    expect(Date.now() - decidedAt).toBeLessThan(HANDOFF_POLL_MS + 1500);
    expect(got).toMatchObject({ approved: false, reviewStatus: "changes_requested", lastDecision: { actor: "Bea", note: "name the runner" }, waitingOn: expect.stringMatching(/^an editor/) });
  });

  it("records the agent on revisions, review events and the activity list", async () => {
    expect((await listRevisions(projectId, packetId)).map((r) => [r.number, r.agentName, r.agentTokenId])).toEqual([
      [2, "stdio agent", null],
      [1, "stdio agent", null],
    ]);
    expect((await reviewHistory(projectId, packetId)).events.map((e) => [e.toStatus, e.actor, e.agentName])).toEqual([
      ["in_review", "local", "stdio agent"],
      ["approved", "Ann", null],
    ]);
    const activity = (await listAgentActivity(projectId)).activity.filter((a) => a.packetId === packetId);
    expect(activity.map((a) => [a.action, a.revision, a.agentName, a.actor, a.tokenId])).toEqual([
      ["picked_up_handoff", 2, "stdio agent", "local", null],
      ["picked_up_handoff", 2, "stdio agent", "local", null],
      ["requested_review", 2, "stdio agent", "local", null],
      ["updated", 2, "stdio agent", "local", null],
      ["drafted", 1, "stdio agent", "local", null],
    ]);
    // The API pages the same list.
    const page = async (q: string) =>
      (await (await activityRoute(new Request(`http://127.0.0.1:3999/api/v1/projects/${projectId}/activity${q}`), { params: Promise.resolve({ id: projectId }) })).json()) as {
        activity: { id: string }[];
        nextCursor: string | null;
      };
    const all = (await listAgentActivity(projectId)).activity;
    const first = await page("?limit=4");
    expect(first.activity.map((a) => a.id)).toEqual(all.slice(0, 4).map((a) => a.id));
    const second = await page(`?limit=4&cursor=${first.nextCursor}`);
    expect(second).toEqual({ activity: JSON.parse(JSON.stringify(all.slice(4))), nextCursor: null });
  });

  it("evaluate_checkpoint is `policy evaluate`'s decision: a v1 pair from the project's files, a goal v2 pair inline", async () => {
    const coord = (rel: string) => path.join(root, ".coord", rel);
    const v1 = await call(client, "evaluate_checkpoint", { project: projectId, checkpoint: ".coord/checkpoints/define-auth-contract.json" });
    expect(v1.policy_file).toBe(".coord/policy.json");
    expect(v1.decision_json).toBe(decisionJson(evaluatePolicyFiles(coord("policy.json"), coord("checkpoints/define-auth-contract.json"))));
    const slice = goldenCase("worked: cycle at the slice cap, fresh evidence, next step, no child");
    const v2 = await call(client, "evaluate_checkpoint", { project: projectId, checkpoint: slice.checkpoint, policy: slice.policy });
    expect(v2).toMatchObject({ decision_json: slice.stdout, policy_file: "inline", exit_code: 3, decision: { schema_version: 2, scope: "slice" } });
  });

  it("list_runs and get_findings read a run a window at a time, as the findings explorer does", async () => {
    const { runs } = await call(client, "list_runs", { project: projectId });
    expect(runs.map((r: { id: string }) => r.id)).toEqual((await listRuns(projectId)).map((r) => r.id));
    const run = runs.find((r: { loopType: string }) => r.loopType === "context")!.id as string;
    const first = await call(client, "get_findings", { project: projectId, run, limit: 2 });
    expect(first).toMatchObject({ offset: 0, nextCursor: "2" });
    expect(first.rows).toHaveLength(2);
    const second = await call(client, "get_findings", { project: projectId, run, limit: 2, cursor: first.nextCursor });
    expect({ ...second, nextCursor: undefined }).toEqual({ ...JSON.parse(JSON.stringify(await runFindings(projectId, run, findingsWindowQuery.parse({ limit: 2, offset: 2 })))), nextCursor: undefined });
    expect(await refused(client, "get_findings", { project: projectId, run, cursor: "x" })).toMatch(/^cursor:/);
  });

  it("list_proposals and get_memory read the project's .coord/", async () => {
    const { snapshot } = await memoryDesk(projectId);
    const all = await call(client, "list_proposals", { project: projectId });
    expect(all.proposals.map((p: { proposal_id: string }) => p.proposal_id).sort()).toEqual(snapshot.proposals.map((p) => p.proposal.proposal_id).sort());
    const pending = await call(client, "list_proposals", { project: projectId, status: "pending" });
    expect(pending.proposals.every((p: { state: string }) => p.state === "pending")).toBe(true);
    const memory = await call(client, "get_memory", { project: projectId });
    expect(memory).toMatchObject({ file: ".coord/memory.yml", eventCount: snapshot.memory!.events.length });
  });
});

describe("team mode: each tool checks the caller's role as the API does", () => {
  const as = (principal: Principal, agent?: McpCallerContext["agent"]) => connect({ principal, agent, baseUrl: "http://127.0.0.1:3999" });
  const principalOf = async (id: string): Promise<Principal> => {
    const a = (await getAccount(id))!;
    return { kind: "user", userId: id, name: a.name, email: a.email, isAdmin: a.isAdmin, via: "token" };
  };
  let editor: Client, viewer: Client, outsider: Client;
  const editorName = "Eddie";

  beforeAll(async () => {
    enterTeamMode();
    await accountWithToken("admin@example.com");
    const e = await accountWithToken("editor@example.com", "Eddie");
    const v = await accountWithToken("viewer@example.com");
    const o = await accountWithToken("outsider@example.com");
    await setMember(projectId, e.id, "editor");
    await setMember(projectId, v.id, "viewer");
    editor = await as(await principalOf(e.id), { tokenId: "tok-editor", tokenName: "release-bot" });
    viewer = await as(await principalOf(v.id), { tokenId: "tok-viewer", tokenName: null });
    outsider = await as(await principalOf(o.id), { tokenId: "tok-outsider", tokenName: "x" });
  });
  afterAll(async () => {
    await Promise.all([editor, viewer, outsider].map((c) => c?.close()));
    leaveTeamMode();
  });

  it("an editor's token drafts; the revision and the activity carry the token", async () => {
    const d = await call(editor, "draft_packet", { project: projectId, kind: "brief", markdown: BRIEF });
    expect(d.url).toBe(`http://127.0.0.1:3999/projects/${projectId}/packets/${d.packet}`);
    expect((await listRevisions(projectId, d.packet))[0]).toMatchObject({ author: editorName, agentTokenId: "tok-editor", agentName: "release-bot" });
    expect((await listAgentActivity(projectId, { limit: 1 })).activity[0]).toMatchObject({ action: "drafted", tokenId: "tok-editor", agentName: "release-bot", actor: editorName, packetId: d.packet });
    expect(await call(editor, "request_review", { packet: d.packet })).toMatchObject({ reviewStatus: "in_review" });
    // A viewer reads it but cannot change it.
    expect(await call(viewer, "get_handoff", { packet: d.packet })).toMatchObject({ approved: false, waitingOn: expect.stringContaining("approver role") });
    expect(await refused(viewer, "update_packet", { packet: d.packet, markdown: REVISED, baseRevision: 1 })).toBe("Your role on this project is viewer; this needs editor or above.");
  });

  it("a viewer's token cannot draft; a project or packet the caller cannot see is not there", async () => {
    expect(await refused(viewer, "draft_packet", { project: projectId, kind: "brief", markdown: BRIEF })).toBe("Your role on this project is viewer; this needs editor or above.");
    expect(await refused(outsider, "list_runs", { project: projectId })).toBe("No such project.");
    expect(await refused(outsider, "draft_packet", { project: root, kind: "brief", markdown: BRIEF })).toBe("No such project.");
    expect(await refused(outsider, "load_context", { project: projectId })).toBe("No such project.");
    const some = (await listAgentActivity(projectId, { limit: 1 })).activity[0]!.packetId!;
    expect(await refused(outsider, "get_handoff", { packet: some })).toBe(`packet: no packet ${some}.`);
    expect(await refused(outsider, "get_handoff", { packet: "nosuchpacket" })).toBe("packet: no packet nosuchpacket.");
    expect((await call(outsider, "search", { q: "export" })).total).toBe(0);
    expect(await refused(outsider, "run_convergence", { specFolder: root })).toMatch(/^specFolder: only an instance administrator/);
  });
});
