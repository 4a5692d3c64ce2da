import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { DataTable, type DataColumn, type DataRow } from "../../components/ui/data-table";

const columns: DataColumn[] = [
  { id: "name", header: "Name", sortable: true },
  { id: "size", header: "Size", sortable: true, align: "right" },
  { id: "note", header: "Note" },
  { id: "actions", header: "Actions", srOnlyHeader: true },
];

function rows(onOpen = vi.fn()): DataRow[] {
  return [
    { name: "beta", size: 20 },
    { name: "alpha", size: 300 },
    { name: "gamma", size: undefined },
  ].map((r) => ({
    key: r.name,
    cells: {
      name: (
        <a
          href={`#${r.name}`}
          onClick={(e) => {
            e.preventDefault();
            onOpen(r.name);
          }}
        >
          {r.name}
        </a>
      ),
      size: r.size ?? "—",
      note: `note on ${r.name}`,
      actions: <button type="button">Remove {r.name}</button>,
    },
    sort: { name: r.name, size: r.size },
  }));
}

const bodyNames = () =>
  within(screen.getByRole("table", { name: "Files" }))
    .getAllByRole("row")
    .slice(1)
    .map((r) => within(r).getAllByRole("cell")[0]!.textContent);

describe("DataTable", () => {
  it("renders the header, the cells and a screen-reader-only actions header", () => {
    render(<DataTable label="Files" columns={columns} rows={rows()} />);
    const headers = screen.getAllByRole("columnheader");
    expect(headers.map((h) => h.textContent)).toEqual(["Name↕", "Size↕", "Note", "Actions"]);
    expect(headers[3]!.querySelector(".sr-only")).not.toBeNull();
    expect(bodyNames()).toEqual(["beta", "alpha", "gamma"]);
    expect(screen.getByText("note on alpha")).toBeTruthy();
  });

  it("sorts by a column on click, with aria-sort saying how, and missing values last", async () => {
    const user = userEvent.setup();
    render(<DataTable label="Files" columns={columns} rows={rows()} />);
    const name = screen.getByRole("columnheader", { name: /Name/ });
    const size = screen.getByRole("columnheader", { name: /Size/ });
    expect(name.getAttribute("aria-sort")).toBe("none");
    expect(screen.getByRole("columnheader", { name: "Note" }).getAttribute("aria-sort")).toBeNull();

    await user.click(within(name).getByRole("button"));
    expect(name.getAttribute("aria-sort")).toBe("ascending");
    expect(bodyNames()).toEqual(["alpha", "beta", "gamma"]);
    await user.click(within(name).getByRole("button"));
    expect(name.getAttribute("aria-sort")).toBe("descending");
    expect(bodyNames()).toEqual(["gamma", "beta", "alpha"]);

    await user.click(within(size).getByRole("button"));
    expect(size.getAttribute("aria-sort")).toBe("ascending");
    expect(name.getAttribute("aria-sort")).toBe("none");
    expect(bodyNames()).toEqual(["beta", "alpha", "gamma"]);
  });

  it("starts from an initial sort", () => {
    render(<DataTable label="Files" columns={columns} rows={rows()} initialSort={{ id: "size", desc: true }} />);
    expect(screen.getByRole("columnheader", { name: /Size/ }).getAttribute("aria-sort")).toBe("descending");
    expect(bodyNames()).toEqual(["alpha", "beta", "gamma"]);
  });

  it("shows the empty state instead of an empty table", () => {
    render(<DataTable label="Files" columns={columns} rows={[]} empty={<p>No files yet.</p>} />);
    expect(screen.getByText("No files yet.")).toBeTruthy();
    expect(screen.queryByRole("table")).toBeNull();
  });

  it("moves between rows with the arrow keys and j / k, and Enter opens the row's link", async () => {
    const user = userEvent.setup();
    const onOpen = vi.fn();
    render(<DataTable label="Files" columns={columns} rows={rows(onOpen)} />);
    const body = within(screen.getByRole("table", { name: "Files" }))
      .getAllByRole("row")
      .slice(1);
    // One tab stop for the whole table: its first row.
    expect(body.map((r) => r.tabIndex)).toEqual([0, -1, -1]);
    await user.keyboard("j");
    expect(document.activeElement).toBe(body[0]);
    await user.keyboard("{ArrowDown}");
    expect(document.activeElement).toBe(body[1]);
    await user.keyboard("{ArrowDown}{ArrowDown}");
    expect(document.activeElement).toBe(body[2]);
    await user.keyboard("{ArrowUp}");
    expect(document.activeElement).toBe(body[1]);
    await user.keyboard("k");
    expect(document.activeElement).toBe(body[0]);
    await user.keyboard("{ArrowDown}{Enter}");
    expect(onOpen).toHaveBeenCalledWith("alpha");
  });

  it("leaves the keyboard alone when asked to", async () => {
    const user = userEvent.setup();
    render(<DataTable label="Files" columns={columns} rows={rows()} keyboard={false} />);
    await user.keyboard("j");
    expect(document.activeElement).toBe(document.body);
    expect(within(screen.getByRole("table")).getAllByRole("row")[1]!.hasAttribute("data-nav-row")).toBe(false);
  });
});
