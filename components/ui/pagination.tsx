import Link from "next/link";

/** Previous / next links that keep every other query parameter. */
export function Pagination({ page, pageSize, total, searchParams, basePath }: { page: number; pageSize: number; total: number; searchParams: Record<string, string>; basePath: string }) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (pages <= 1) return null;
  const href = (p: number) => {
    const qs = new URLSearchParams(searchParams);
    if (p === 1) qs.delete("page");
    else qs.set("page", String(p));
    const s = qs.toString();
    return s ? `${basePath}?${s}` : basePath;
  };
  const cls = "inline-flex h-8 items-center rounded-md border border-border px-3 text-sm hover:bg-muted";
  return (
    <nav aria-label="Pages" className="mt-4 flex items-center justify-between text-sm text-fg-muted">
      <span>
        Page {page} of {pages} · rows {(page - 1) * pageSize + 1}–{Math.min(total, page * pageSize)} of {total}
      </span>
      <span className="flex gap-2">
        {page > 1 ? (
          <Link className={cls} href={href(page - 1)} rel="prev">
            Previous
          </Link>
        ) : null}
        {page < pages ? (
          <Link className={cls} href={href(page + 1)} rel="next">
            Next
          </Link>
        ) : null}
      </span>
    </nav>
  );
}
