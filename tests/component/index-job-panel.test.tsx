import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { IndexJobPanel } from "../../components/projects/index-job-panel";
import type { IndexJob } from "../../lib/projects/schemas";

const refresh = vi.fn();
vi.mock("next/navigation", () => ({ useRouter: () => ({ refresh }) }));

const running: IndexJob = {
  id: "j1",
  projectId: "p1",
  status: "running",
  phase: "sources",
  filesDone: 10,
  filesTotal: 100,
  error: null,
  stats: {},
  createdAt: "2026-02-10T10:00:00.000Z",
  startedAt: "2026-02-10T10:00:00.000Z",
  finishedAt: null,
};

describe("IndexJobPanel", () => {
  const calls: { method: string; url: string }[] = [];
  beforeEach(() => {
    calls.length = 0;
    refresh.mockClear();
    const json = (v: unknown) => new Response(JSON.stringify(v), { status: 200 });
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string, init?: RequestInit) => {
        calls.push({ method: init?.method ?? "GET", url });
        if (url === "/api/v1/jobs/j1/cancel" && init?.method === "POST") {
          return json({ job: { ...running, status: "cancelled", error: "Cancelled; the project is as it was before the job.", finishedAt: "2026-02-10T10:00:05.000Z" } });
        }
        if (url.startsWith("/api/v1/jobs/j1")) return json({ job: running });
        return new Response("{}", { status: 404 });
      }),
    );
  });

  it("cancels a running job with its button and says the project is as it was", async () => {
    render(<IndexJobPanel projectId="p1" initialJob={running} lastIndexedAt={null} />);
    const status = screen.getByRole("status");
    expect(status.textContent).toContain("Reading work, brainstorms, proposals, refactoring · 10 / 100 files");
    expect((screen.getByRole("button", { name: "Indexing…" }) as HTMLButtonElement).disabled).toBe(true);

    await userEvent.click(screen.getByRole("button", { name: "Cancel" }));
    expect(calls).toContainEqual({ method: "POST", url: "/api/v1/jobs/j1/cancel" });
    expect((await within(status).findByText("cancelled")).textContent).toBe("cancelled");
    expect(status.textContent).toContain("Cancelled; the project is as it was before the job.");
    expect(screen.queryByRole("button", { name: "Cancel" })).toBeNull();
    expect((screen.getByRole("button", { name: "Re-index" }) as HTMLButtonElement).disabled).toBe(false);
    expect(refresh).toHaveBeenCalled();
  });

  it("offers no Cancel button when no job runs", () => {
    render(<IndexJobPanel projectId="p1" initialJob={{ ...running, status: "interrupted", phase: "search", error: "The server stopped while this job was running." }} lastIndexedAt={null} />);
    expect(screen.queryByRole("button", { name: "Cancel" })).toBeNull();
    expect(screen.getByRole("status").textContent).toContain("interrupted");
    expect(screen.getByRole("status").textContent).toContain("The server stopped while this job was running.");
  });
});
