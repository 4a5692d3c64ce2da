import { act, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

const push = vi.fn();
vi.mock("next/navigation", () => ({ useRouter: () => ({ push }), usePathname: () => "/projects/p2/topics" }));

import { CommandPalette, OPEN_PALETTE_EVENT } from "../../components/shell/command-palette";

const TARGETS = {
  projects: [
    { id: "p1", name: "Acme Orders" },
    { id: "p2", name: "Billing" },
  ],
  topics: [
    { projectId: "p1", slug: "JIRA-123", title: "Export orders as CSV", status: "in_progress" },
    { projectId: "p2", slug: "user-auth", title: "Sessions and sign-in", status: "completed" },
  ],
  runs: [{ projectId: "p1", id: "r1", relPath: "specs/sqlite-to-turso", loopType: "deep-context", status: null }],
  packets: [{ projectId: "p1", id: "k1", title: "Revoke sessions packet", kind: "packet", reviewStatus: "draft" }],
  views: [],
};
const HIT = {
  projectId: "p1",
  projectName: "Acme Orders",
  kind: "document",
  ref: "docs/a.md",
  title: "Webhook \uE000replay\uE001 runbook",
  snippet: "",
  href: "/projects/p1/documents?path=docs%2Fa.md",
  score: 1,
  status: null,
  date: null,
};

let searches: string[] = [];
beforeEach(() => {
  push.mockReset();
  searches = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: string) => {
      const url = new URL(input, "http://workbench.test");
      if (url.pathname === "/api/v1/palette") return new Response(JSON.stringify(TARGETS), { status: 200 });
      if (url.pathname === "/api/v1/search") {
        searches.push(url.searchParams.get("q") ?? "");
        // A whole search result: the client checks replies against the route's response schema.
        const result = { query: { q: url.searchParams.get("q") }, total: 1, hits: [HIT], facets: { project: [], kind: [], status: [], year: [] }, engine: "sqlite-fts5", tookMs: 1, matched: "all" };
        return new Response(JSON.stringify(result), { status: 200 });
      }
      return new Response("{}", { status: 404 });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

const options = () =>
  within(screen.getByRole("listbox"))
    .queryAllByRole("option")
    .map((o) => o.textContent ?? "");

describe("CommandPalette", () => {
  it("opens with Ctrl+K, lists pages, topics, runs and packets, the current project's pages first", async () => {
    const user = userEvent.setup();
    render(<CommandPalette />);
    expect(screen.queryByRole("dialog")).toBeNull();
    await user.keyboard("{Control>}k{/Control}");
    expect(await screen.findByRole("dialog")).toBeTruthy();
    await waitFor(() => expect(options().some((o) => o.includes("Export orders as CSV (JIRA-123)"))).toBe(true));
    const all = options();
    expect(all).toContain("Projects");
    expect(all.some((o) => o.includes("specs/sqlite-to-turso"))).toBe(true);
    expect(all.some((o) => o.includes("Revoke sessions packet"))).toBe(true);
    // Billing (the project in the URL) comes before Acme Orders.
    const firstProjectPage = all.findIndex((o) => o.startsWith("Overview"));
    expect(all[firstProjectPage]).toContain("Billing");
  });

  it("filters as you type and Enter jumps to the chosen topic", async () => {
    const user = userEvent.setup();
    render(<CommandPalette />);
    act(() => void window.dispatchEvent(new Event(OPEN_PALETTE_EVENT)));
    await waitFor(() => expect(options().length).toBeGreaterThan(3));
    await user.type(screen.getByRole("combobox"), "user-auth");
    await waitFor(() => expect(options().some((o) => o.includes("Sessions and sign-in (user-auth)"))).toBe(true));
    expect(options().some((o) => o.includes("JIRA-123"))).toBe(false);
    // The first item is "Search everything"; the topic is next.
    await user.keyboard("{ArrowDown}{Enter}");
    expect(push).toHaveBeenCalledWith("/projects/p2/topics/user-auth");
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });

  it("lists the best full-text matches for what was typed and opens one", async () => {
    const user = userEvent.setup();
    render(<CommandPalette />);
    await user.keyboard("{Control>}k{/Control}");
    await user.type(await screen.findByRole("combobox"), "replay");
    const hit = await screen.findByRole("option", { name: /Webhook replay runbook/ });
    expect(searches).toContain("replay");
    await user.click(hit);
    expect(push).toHaveBeenCalledWith(HIT.href);
  });

  it("offers a search of everything for the query", async () => {
    const user = userEvent.setup();
    render(<CommandPalette />);
    await user.keyboard("{Control>}k{/Control}");
    await user.type(await screen.findByRole("combobox"), "webhooks");
    await user.keyboard("{Enter}");
    expect(push).toHaveBeenCalledWith("/search?q=webhooks");
  });

  it("says so when the places cannot be loaded", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => new Response("no", { status: 500 })),
    );
    const user = userEvent.setup();
    render(<CommandPalette />);
    await user.keyboard("{Control>}k{/Control}");
    expect(await screen.findByText("Could not load projects: the server answered 500")).toBeTruthy();
  });
});
