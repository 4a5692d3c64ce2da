/** What the handoff URL answers with: the packet's markdown, or the seed's result object as JSON. */
export type HandoffFormat = "md" | "json";

/**
 * `?format=` wins when given; otherwise the Accept header decides. JSON only when the
 * client names application/json and prefers it: above an explicit text/markdown, and at
 * least as high as a wildcard (`application/json, *\/*` is a JSON client; a browser's
 * `text/html, …, *\/*;q=0.8` and curl's `*\/*` get markdown, as before).
 */
export function handoffFormat(format: HandoffFormat | undefined, accept: string | null): HandoffFormat {
  if (format) return format;
  let json = 0;
  let markdown = 0;
  let wildcard = 0;
  for (const range of (accept ?? "").split(",")) {
    const [type = "", ...params] = range.split(";").map((p) => p.trim().toLowerCase());
    const q = qOf(params);
    if (type === "application/json") json = Math.max(json, q);
    else if (type === "text/markdown") markdown = Math.max(markdown, q);
    else if (type === "*/*" || type === "text/*") wildcard = Math.max(wildcard, q);
  }
  return json > 0 && json > markdown && json >= wildcard ? "json" : "md";
}

function qOf(params: string[]): number {
  const q = params.find((p) => p.startsWith("q="));
  if (!q) return 1;
  const n = Number(q.slice(2));
  return Number.isFinite(n) ? Math.min(Math.max(n, 0), 1) : 1;
}
