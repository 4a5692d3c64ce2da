import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { FindingRow, FindingsFacets, FindingsPage } from "../../lib/deep-context/views";

vi.mock("next/navigation", () => ({ useSearchParams: () => new URLSearchParams() }));

import { FindingsExplorer } from "../../components/runs/findings-explorer";

function finding(i: number, over: Partial<FindingRow> = {}): FindingRow {
  return {
    unit_id: `u${i}`,
    path: `src/mod${i}.ts`,
    symbol: `sym${i}`,
    kind: i % 2 ? "function" : "type",
    signature: "",
    reuse: "",
    evidence: `src/mod${i}.ts:${i + 1}`,
    notes: "",
    producedBy: ["claude"],
    agreement: 2,
    agreementEligible: true,
    relevance: 0.9,
    firstIteration: 1,
    bucket: "core",
    contradicted: false,
    ...over,
  };
}

const ROWS = Array.from({ length: 5 }, (_, i) => finding(i));
const FIRST: FindingsPage = { matched: ROWS.length, offset: 0, rows: ROWS };
const FACETS: FindingsFacets = {
  total: 5,
  buckets: [
    { name: "core", count: 4 },
    { name: "lowConfidence", count: 1 },
  ],
  kinds: [
    { name: "function", count: 2 },
    { name: "type", count: 3 },
  ],
};
const LOW = [finding(9, { bucket: "lowConfidence", symbol: "lonely", path: "src/low.ts" })];

let findingsCalls: URL[] = [];
beforeEach(() => {
  findingsCalls = [];
  // happy-dom lays nothing out: give the scroll box (and everything else) a size, so the
  // virtual list has a window to fill.
  vi.spyOn(HTMLElement.prototype, "clientHeight", "get").mockReturnValue(448);
  vi.spyOn(HTMLElement.prototype, "clientWidth", "get").mockReturnValue(800);
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: string) => {
      const url = new URL(input, "http://localhost");
      if (url.pathname.endsWith("/findings")) {
        findingsCalls.push(url);
        const rows = url.searchParams.get("bucket") === "lowConfidence" ? LOW : ROWS;
        return new Response(JSON.stringify({ matched: rows.length, offset: 0, rows }), { status: 200 });
      }
      return new Response(JSON.stringify({ check: { status: "verified", reason: "line matches", line: 1, lineText: "export" } }), { status: 200 });
    }),
  );
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  window.history.replaceState(null, "", "/");
});

const renderExplorer = () => render(<FindingsExplorer projectId="p1" runId="r1" facets={FACETS} first={FIRST} executors={["claude", "codex"]} />);
const rowsOf = () =>
  within(screen.getByRole("table", { name: "Findings" }))
    .queryAllByRole("row")
    .filter((r) => r.tagName === "BUTTON");

describe("the findings explorer's window", () => {
  it("draws the rows of the server's first block without asking the API", () => {
    renderExplorer();
    const rows = rowsOf();
    expect(rows).toHaveLength(ROWS.length);
    ROWS.forEach((f, i) => expect(rows[i]!.textContent).toContain(`${f.symbol} ${f.path}`));
    expect(screen.getByTestId("findings-count").textContent).toBe("5 of 5 findings");
    expect(findingsCalls).toHaveLength(0);
  });

  it("asks for a new window when a filter changes, once, and draws what the API returned", async () => {
    renderExplorer();
    fireEvent.change(screen.getByLabelText("Bucket"), { target: { value: "lowConfidence" } });
    await waitFor(() => expect(rowsOf()).toHaveLength(1));
    expect(rowsOf()[0]!.textContent).toContain("lonely src/low.ts");
    expect(findingsCalls).toHaveLength(1);
    expect(findingsCalls[0]!.searchParams.get("bucket")).toBe("lowConfidence");
    expect(findingsCalls[0]!.searchParams.get("offset")).toBe("0");
    expect(screen.getByTestId("findings-count").textContent).toBe("1 of 5 findings");
    // The filter is shareable: it is written into the page URL.
    expect(new URL(window.location.href).searchParams.get("f.bucket")).toBe("lowConfidence");
  });

  it("moves through the rows with j and k, and the drawer follows", async () => {
    renderExplorer();
    const drawer = screen.getByTestId("finding-drawer");
    act(() => void fireEvent.keyDown(document.body, { key: "j" }));
    await waitFor(() => expect(drawer.textContent).toContain("sym0"));
    act(() => void fireEvent.keyDown(document.body, { key: "j" }));
    act(() => void fireEvent.keyDown(document.body, { key: "j" }));
    await waitFor(() => expect(drawer.textContent).toContain("sym2"));
    expect(rowsOf()[2]!.getAttribute("aria-selected")).toBe("true");
    act(() => void fireEvent.keyDown(document.body, { key: "k" }));
    await waitFor(() => expect(drawer.textContent).toContain("sym1"));
    expect(rowsOf()[1]!.getAttribute("aria-selected")).toBe("true");
    expect(rowsOf()[2]!.getAttribute("aria-selected")).toBe("false");
    // The row list does not reload for a selection.
    expect(findingsCalls).toHaveLength(0);
  });
});
