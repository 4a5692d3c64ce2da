/** The comparison URL: every choice (baseline, mode, list, page) is in the query string, so a view can be shared. */
export function compareHref(projectId: string, runId: string, q: { base?: string | null; changes?: boolean; section?: string | null; page?: number }): string {
  const qs = new URLSearchParams();
  if (q.base) qs.set("base", q.base);
  if (q.changes) qs.set("changes", "1");
  if (q.section) qs.set("section", q.section);
  if (q.page && q.page > 1) qs.set("page", String(q.page));
  const s = qs.toString();
  return `/projects/${projectId}/runs/${runId}/compare${s ? `?${s}` : ""}`;
}
