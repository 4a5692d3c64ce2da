import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import * as Y from "yjs";
import { ReviewPanel } from "../../components/packets/review-panel";
import type { CommentDto } from "../../lib/db/repositories/collab";

const BASE = "/api/v1/projects/p1/packets/k1";
const MARKDOWN = "## Task\nRevoke every session on password change.\n";

/** The packet as the review route answers with it (the client checks replies against the route's response schema). */
function packetOf(state: { status: string; head: number; approved: number | null }) {
  return {
    id: "k1",
    projectId: "p1",
    kind: "packet",
    title: "T",
    topicSlug: null,
    archived: false,
    headNumber: state.head,
    emittedNumber: null,
    emittedAt: null,
    reviewStatus: state.status,
    approvedNumber: state.approved,
    updatedAt: "2026-02-10T10:00:00.000Z",
    createdAt: "2026-02-10T09:00:00.000Z",
    head: { tokenEstimate: 120, completeness: "full", blockCount: 0, warnCount: 0 },
    taskTokens: null,
    markdown: MARKDOWN,
  };
}

/** A small stand-in for the packet's review and comment routes. */
function fakeServer() {
  const state = {
    status: "draft",
    head: 3,
    approved: null as number | null,
    events: [] as { id: string; fromStatus: string; toStatus: string; actor: string; revision: number; note: string | null; agentTokenId: string | null; agentName: string | null; createdAt: string }[],
    comments: [] as CommentDto[],
  };
  const posts: { url: string; body: Record<string, unknown> }[] = [];
  const to: Record<string, string> = { request_review: "in_review", approve: "approved", request_changes: "changes_requested", withdraw: "draft" };
  const json = (v: unknown, status = 200) => new Response(JSON.stringify(v), { status });
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : {};
    if (init?.method === "POST") posts.push({ url, body });
    if (url === `${BASE}/review` && init?.method === "POST") {
      const next = to[String(body.action)]!;
      state.events.push({
        id: `e${state.events.length}`,
        fromStatus: state.status,
        toStatus: next,
        actor: String(body.actor),
        revision: state.head,
        note: (body.note as string | null) ?? null,
        agentTokenId: null,
        agentName: null,
        createdAt: "2026-02-10T10:00:00.000Z",
      });
      state.status = next;
      if (next === "approved") state.approved = state.head;
      return json({ packet: packetOf(state), events: state.events });
    }
    if (url === `${BASE}/review`) return json({ packet: { id: "k1", title: "T", kind: "packet", reviewStatus: state.status, approvedNumber: state.approved, headNumber: state.head }, events: state.events, threads: [] });
    if (url === `${BASE}/comments` && init?.method === "POST") {
      const id = `c${state.comments.length}`;
      state.comments.push({
        id,
        threadId: (body.threadId as string) ?? id,
        section: (body.section as string | null) ?? null,
        quote: null,
        anchorFrom: null,
        anchorTo: null,
        anchorStart: null,
        anchorEnd: null,
        body: String(body.body),
        author: String(body.author),
        resolved: false,
        resolvedBy: null,
        resolvedAt: null,
        createdAt: "2026-02-10T10:05:00.000Z",
      });
      return json({ comment: state.comments.at(-1) }, 201);
    }
    if (url === `${BASE}/comments`) return json({ comments: state.comments });
    const resolved = /\/comments\/([^/]+)\/resolve$/.exec(url);
    if (resolved) {
      for (const c of state.comments) if (c.threadId === resolved[1]) Object.assign(c, { resolved: body.resolved, resolvedBy: body.resolved ? body.actor : null });
      return json({ comments: state.comments });
    }
    return json({ error: { code: "NOT_FOUND", message: "no route" } }, 404);
  });
  return { state, posts, fetchMock };
}

function renderPanel(opts: { headBlocks?: number; identity?: boolean } = {}) {
  const doc = new Y.Doc();
  const text = doc.getText("markdown");
  text.insert(0, MARKDOWN);
  const onStatusChange = vi.fn();
  render(
    <ReviewPanel
      params={{ id: "p1", packetId: "k1" }}
      identity={opts.identity === false ? null : { id: "u1", name: "Ana", color: "#000" }}
      signals={doc.getMap<number>("signals")}
      sections={["Task", "Scope"]}
      selection={() => null}
      onStatusChange={onStatusChange}
      unsavedText={false}
      text={text}
      markdown={MARKDOWN}
      reveal={() => {}}
      headNumber={3}
      headBlocks={opts.headBlocks ?? 0}
    />,
  );
  return { onStatusChange, signals: doc.getMap<number>("signals") };
}

let server: ReturnType<typeof fakeServer>;
beforeEach(() => {
  server = fakeServer();
  vi.stubGlobal("fetch", server.fetchMock);
});

const status = () => within(screen.getByRole("region", { name: "Review status" }));

describe("the review panel", () => {
  it("requests review, then approves the revision it shows, recording who and on which revision", async () => {
    const user = userEvent.setup();
    const { onStatusChange, signals } = renderPanel();
    await user.click(await status().findByRole("button", { name: "Request review" }));
    expect(await status().findByText("in review")).toBeTruthy();
    await user.type(screen.getByLabelText("Review note"), "Reads well");
    await user.click(status().getByRole("button", { name: "Approve r3" }));
    expect(await status().findByText("approved")).toBeTruthy();
    expect(server.posts.map((p) => p.body)).toEqual([
      { action: "request_review", actor: "Ana", note: null, revision: null },
      { action: "approve", actor: "Ana", note: "Reads well", revision: 3 },
    ]);
    expect(status().getByText("approved revision r3 (frozen)")).toBeTruthy();
    expect(
      within(screen.getByRole("list", { name: "Review history" }))
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual([expect.stringContaining("Ana: draft → in review on r3"), expect.stringContaining("Ana: in review → approved on r3 — Reads well")]);
    // Each decision tells the page (its badge) and the other participants (a counter in the shared document).
    expect(onStatusChange).toHaveBeenCalled();
    expect(signals.get("review")).toBe(2);
  });

  it("names the agent on a review event made through MCP, next to the person it acted for", async () => {
    server.state.status = "in_review";
    server.state.events.push({ id: "e0", fromStatus: "draft", toStatus: "in_review", actor: "Eddie", revision: 3, note: null, agentTokenId: "t1", agentName: "claude-code", createdAt: "2026-02-10T10:00:00.000Z" });
    renderPanel();
    const history = await screen.findByRole("list", { name: "Review history" });
    expect(within(history).getByRole("listitem").textContent).toContain("Eddie via claude-code (agent): draft → in review on r3");
  });

  it("will not approve a revision with BLOCK findings", async () => {
    server.state.status = "in_review";
    renderPanel({ headBlocks: 2 });
    const approve = await status().findByRole("button", { name: "Approve r3" });
    expect((approve as HTMLButtonElement).disabled).toBe(true);
    expect(approve.getAttribute("title")).toBe("r3 has 2 BLOCK findings: fix them and save before approving.");
    expect((status().getByRole("button", { name: "Request changes r3" }) as HTMLButtonElement).disabled).toBe(false);
  });

  it("asks for a display name when a review action first needs one, then carries the action on under it", async () => {
    window.localStorage.clear();
    const user = userEvent.setup();
    renderPanel({ identity: false });
    const request = await status().findByRole("button", { name: "Request review" });
    expect((request as HTMLButtonElement).disabled).toBe(false);
    await user.click(request);
    const dialog = await screen.findByRole("dialog", { name: "Your name, before you request review" });
    expect(server.posts).toEqual([]);
    // An empty name is refused in the dialog; nothing is sent.
    await user.click(within(dialog).getByRole("button", { name: "Save name and request review" }));
    expect((await within(dialog).findByRole("alert")).textContent).toBe("A display name has 1 to 40 characters.");
    await user.type(within(dialog).getByLabelText("Display name"), "Ana Lima");
    await user.click(within(dialog).getByRole("button", { name: "Save name and request review" }));
    expect(await status().findByText("in review")).toBeTruthy();
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(server.posts.map((p) => p.body)).toEqual([{ action: "request_review", actor: "Ana Lima", note: null, revision: null }]);
    expect(window.localStorage.getItem("workbench.displayName")).toBe("Ana Lima");

    // Chosen once, it is not asked again.
    await user.type(screen.getByLabelText("New comment"), "Looks complete.");
    await user.click(screen.getByRole("button", { name: "Comment" }));
    await screen.findByText("Looks complete.");
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(server.posts.at(-1)!.body).toMatchObject({ author: "Ana Lima", body: "Looks complete." });
  });

  it("cancelling the name dialog sends nothing", async () => {
    window.localStorage.clear();
    const user = userEvent.setup();
    renderPanel({ identity: false });
    await user.type(screen.getByLabelText("New comment"), "Draft thought");
    await user.click(screen.getByRole("button", { name: "Comment" }));
    const dialog = await screen.findByRole("dialog", { name: "Your name, before you comment" });
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(server.posts).toEqual([]);
    expect((screen.getByLabelText("New comment") as HTMLTextAreaElement).value).toBe("Draft thought");
  });

  it("comments on a section, replies, and resolves the thread", async () => {
    const user = userEvent.setup();
    renderPanel();
    expect(await screen.findByText("No comments yet.")).toBeTruthy();
    await user.selectOptions(screen.getByLabelText("Comment section"), "Scope");
    await user.type(screen.getByLabelText("New comment"), "Name the tables it may touch.");
    await user.click(screen.getByRole("button", { name: "Comment" }));
    const thread = await screen.findByText("Name the tables it may touch.");
    const li = thread.closest("[data-thread]") as HTMLElement;
    expect(li.textContent).toContain("on section Scope");
    expect((screen.getByLabelText("New comment") as HTMLTextAreaElement).value).toBe("");

    await user.type(within(li).getByLabelText("Reply to Ana"), "Done in r4.");
    await user.click(within(li).getByRole("button", { name: "Reply" }));
    await waitFor(() => expect(within(screen.getByRole("list", { name: "Comment threads" })).getByText("Done in r4.")).toBeTruthy());
    expect(server.posts.at(-1)!.body).toEqual({ author: "Ana", threadId: "c0", body: "Done in r4." });

    await user.click(within(screen.getByRole("list", { name: "Comment threads" })).getByRole("button", { name: "Resolve" }));
    await waitFor(() => expect(screen.getByRole("list", { name: "Comment threads" }).textContent).toContain("resolved by Ana"));
    expect(within(screen.getByRole("list", { name: "Comment threads" })).getByRole("button", { name: "Reopen" })).toBeTruthy();
  });

  it("shows the server's refusal", async () => {
    const user = userEvent.setup();
    renderPanel();
    server.fetchMock.mockImplementationOnce(async () => new Response(JSON.stringify({ error: { code: "CONFLICT", message: "Cannot request review: a newer revision was saved." } }), { status: 409 }));
    await user.click(await status().findByRole("button", { name: "Request review" }));
    expect((await screen.findByRole("alert")).textContent).toBe("Cannot request review: a newer revision was saved.");
  });
});
