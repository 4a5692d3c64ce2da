"use client";

import { type SortingState, getCoreRowModel, getSortedRowModel, useReactTable } from "@tanstack/react-table";
import { useState, type ReactNode } from "react";
import { cn } from "@/components/ui/cn";
import { KeyboardList } from "@/components/ui/keyboard-list";

/**
 * One column of a DataTable. Cells are rendered by the caller (so a server component can hand
 * over finished cells); a sortable column sorts by the value each row gives under its id.
 */
export interface DataColumn {
  id: string;
  header: string;
  /** The header is for screen readers only (an actions column). */
  srOnlyHeader?: boolean;
  /** This column's cell names its row (`<th scope="row">`), e.g. the signal a row measures. */
  rowHeader?: boolean;
  /** A hover explanation of the header. */
  title?: string;
  sortable?: boolean;
  align?: "left" | "center" | "right";
  /** Extra classes for this column's header and cells (widths, padding). */
  className?: string;
  /** Extra classes for this column's cells only (type, colour, truncation). */
  cellClassName?: string;
}

export interface DataRow {
  key: string;
  cells: Record<string, ReactNode>;
  /** Sort values by column id; a missing value sorts last. */
  sort?: Record<string, string | number | null | undefined>;
  className?: string;
  /** Attributes tests and styles select rows by (`data-…`). */
  data?: Record<`data-${string}`, string>;
}

export interface DataTableProps {
  /** The table's accessible name. */
  label: string;
  columns: DataColumn[];
  rows: DataRow[];
  /** Shown instead of the table when there is no row. */
  empty?: ReactNode;
  /** j / k / arrows / Enter move between rows and open them (KeyboardList); on by default. */
  keyboard?: boolean;
  /** The list that answers j / k while nothing is focused; one per page. */
  primary?: boolean;
  /** A vertical scroll box with a sticky header, e.g. "max-h-96". */
  scrollClassName?: string;
  className?: string;
  tableClassName?: string;
  /** Sorted on first render, e.g. `{ id: "updated", desc: true }`. */
  initialSort?: { id: string; desc?: boolean };
}

const ALIGN = { left: "text-left", center: "text-center", right: "text-right" } as const;

function ariaSort(sorted: false | "asc" | "desc", sortable: boolean): "ascending" | "descending" | "none" | undefined {
  if (sorted === "asc") return "ascending";
  if (sorted === "desc") return "descending";
  return sortable ? "none" : undefined;
}

/** A header as the table draws it: its column, and how it sorts (when it can). */
interface HeaderCell {
  col: DataColumn;
  sortable: boolean;
  sorted: false | "asc" | "desc";
  toggle?: (event: unknown) => void;
}

/**
 * The dashboard's table: header row, optional sorting (aria-sort on the header, a button to
 * toggle it), an empty state, keyboard row navigation and a sticky header inside a scroll box.
 * Headless parts come from @tanstack/react-table; the look is the design system's.
 */
export function DataTable(props: DataTableProps) {
  // Most tables never sort in the browser (their rows come sorted and paged from the server):
  // they skip the table model, whose row, cell and memo objects cost more to build on every
  // server render than the rows themselves (the topic inventory draws 100 a page).
  return props.initialSort || props.columns.some((c) => c.sortable) ? <SortableTable {...props} /> : <TableView {...props} headers={props.columns.map((col) => ({ col, sortable: false, sorted: false }))} />;
}

function SortableTable(props: DataTableProps) {
  const { columns, rows, initialSort } = props;
  const [sorting, setSorting] = useState<SortingState>(initialSort ? [{ id: initialSort.id, desc: Boolean(initialSort.desc) }] : []);
  const table = useReactTable<DataRow>({
    data: rows,
    columns: columns.map((c) => ({
      id: c.id,
      accessorFn: (r: DataRow) => r.sort?.[c.id] ?? undefined,
      enableSorting: Boolean(c.sortable),
      sortUndefined: "last" as const,
      // Every column sorts ascending first, numbers included (the library starts numbers descending).
      sortDescFirst: false,
      sortingFn: "basic" as const,
    })),
    state: { sorting },
    onSortingChange: setSorting,
    getRowId: (r) => r.key,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
  });
  const byId = new Map(columns.map((c) => [c.id, c]));
  const headers = table.getHeaderGroups()[0]!.headers.map((h) => ({ col: byId.get(h.column.id)!, sortable: h.column.getCanSort(), sorted: h.column.getIsSorted(), toggle: h.column.getToggleSortingHandler() }));
  return <TableView {...props} headers={headers} rows={table.getRowModel().rows.map((r) => r.original)} />;
}

function TableView({ label, columns, rows, headers, empty, keyboard = true, primary = true, scrollClassName, className, tableClassName }: DataTableProps & { headers: HeaderCell[] }) {
  if (rows.length === 0 && empty !== undefined) return <>{empty}</>;
  // Each column's cell classes once, not once per cell.
  const cellClass = columns.map((col) => cn("px-3 py-2", col.rowHeader && "font-normal", ALIGN[col.align ?? "left"], col.className, col.cellClassName));
  const body = (
    <div className={cn("overflow-x-auto rounded-lg border border-border bg-surface", scrollClassName && cn("overflow-y-auto", scrollClassName), className)}>
      <table className={cn("w-full text-sm", tableClassName)} aria-label={label}>
        <thead className="sticky top-0 z-10 bg-surface text-left text-xs text-fg-muted">
          <tr>
            {headers.map(({ col, sortable, sorted, toggle }) => (
              <th key={col.id} scope="col" title={col.title} aria-sort={ariaSort(sorted, sortable)} className={cn("px-3 py-2 font-medium", ALIGN[col.align ?? "left"], col.className)}>
                {col.srOnlyHeader ? (
                  <span className="sr-only">{col.header}</span>
                ) : sortable ? (
                  <button type="button" onClick={toggle} className="inline-flex items-center gap-1 font-medium hover:text-fg focus-visible:outline-2 focus-visible:outline-accent">
                    {col.header}
                    <span aria-hidden className="text-[10px]">
                      {sorted === "asc" ? "▲" : sorted === "desc" ? "▼" : "↕"}
                    </span>
                  </button>
                ) : (
                  col.header
                )}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key} {...row.data} data-nav-row={keyboard ? "" : undefined} tabIndex={keyboard ? -1 : undefined} className={cn("border-t border-border hover:bg-muted/60 focus-visible:bg-muted", row.className)}>
              {columns.map((col, i) => {
                const Cell = col.rowHeader ? "th" : "td";
                return (
                  <Cell key={col.id} scope={col.rowHeader ? "row" : undefined} className={cellClass[i]}>
                    {row.cells[col.id]}
                  </Cell>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
  return keyboard ? (
    <KeyboardList label={`${label} table`} primary={primary}>
      {body}
    </KeyboardList>
  ) : (
    body
  );
}
