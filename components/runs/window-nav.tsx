import Link from "next/link";
import { type ListWindow, windowSteps } from "@/lib/deep-context/views";

/**
 * Where a window of a long list stands ("events 199,801–200,000 of 200,036") with links to the
 * windows around it. The position is the URL parameter `param` (other parameters are kept),
 * so a window can be shared; the newest window is the one without it.
 */
export function WindowNav({ window: w, noun, param, basePath, searchParams, anchor }: { window: ListWindow; noun: string; param: string; basePath: string; searchParams: Record<string, string>; anchor: string }) {
  const fmt = (n: number) => n.toLocaleString("en");
  const steps = windowSteps(w);
  const lastOffset = Math.max(0, w.total - w.size);
  const href = (offset: number) => {
    const qs = new URLSearchParams(searchParams);
    if (offset >= lastOffset) qs.delete(param);
    else qs.set(param, String(offset));
    const s = qs.toString();
    return `${s ? `${basePath}?${s}` : basePath}#${anchor}`;
  };
  const cls = "inline-flex h-7 items-center rounded-md border border-border px-2 text-xs hover:bg-muted focus-visible:outline-2 focus-visible:outline-accent";
  const links: [string, number | null, string | undefined][] = [
    ["Oldest", steps.first, undefined],
    ["Older", steps.previous, "prev"],
    ["Newer", steps.next, "next"],
    ["Newest", steps.last, undefined],
  ];
  return (
    <nav aria-label={`${noun} windows`} className="flex flex-wrap items-center justify-between gap-2 px-4 py-2 text-xs text-fg-muted">
      <span>{w.total === 0 ? `No ${noun}` : w.count === w.total ? `All ${fmt(w.total)} ${noun}` : `${noun[0]!.toUpperCase()}${noun.slice(1)} ${fmt(w.offset + 1)}–${fmt(w.offset + w.count)} of ${fmt(w.total)}`}</span>
      {w.count < w.total ? (
        <span className="flex gap-1.5">
          {links.map(([label, offset, rel]) =>
            offset === null ? null : (
              <Link key={label} className={cls} href={href(offset)} rel={rel}>
                {label}
              </Link>
            ),
          )}
        </span>
      ) : null}
    </nav>
  );
}
