/** A table's header row in the dashboard's style; `actions` adds a last column named for screen readers only. */
export function TableHead({ columns, actions = false, alignLast }: { columns: string[]; actions?: boolean; alignLast?: "right" }) {
  return (
    <thead className="text-left text-xs text-fg-muted">
      <tr>
        {columns.map((c, i) => (
          <th key={c} scope="col" className={`px-3 py-2 font-medium ${alignLast === "right" && i === columns.length - 1 && !actions ? "text-right" : ""}`}>
            {c}
          </th>
        ))}
        {actions ? (
          <th scope="col" className="px-3 py-2 font-medium">
            <span className="sr-only">Actions</span>
          </th>
        ) : null}
      </tr>
    </thead>
  );
}
