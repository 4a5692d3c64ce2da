import { LRUCache } from "lru-cache";
import type { ReactElement } from "react";
import ReactMarkdown from "react-markdown";
import rehypeSanitize from "rehype-sanitize";
import remarkGfm from "remark-gfm";
import { boundMarkdown, boundsNotices } from "@/lib/core/markdown-bounds";

/**
 * Rendered markdown by source text. Pages show the same indexed files on every request (a
 * topic's agent outputs, a brainstorm's excerpts), and bounding, parsing, GFM and sanitizing
 * cost milliseconds per file: under 20 concurrent clients that was most of a topic page's
 * render. The output depends on the text alone, and React elements are never mutated, so one
 * tree serves every request. Bounded by the texts' total length.
 */
const rendered = new LRUCache<string, ReactElement>({ max: 5_000, maxSize: 16_000_000, sizeCalculation: (_el, text) => Math.max(1, text.length) });

function render(text: string): ReactElement {
  const bounded = boundMarkdown(text);
  const notices = boundsNotices(bounded);
  return (
    <div className="prose-sm space-y-2 text-sm leading-relaxed [&_a]:text-accent [&_a]:underline [&_code]:rounded [&_code]:bg-muted [&_code]:px-1 [&_code]:font-mono [&_code]:text-xs [&_h1]:text-base [&_h1]:font-semibold [&_h2]:text-sm [&_h2]:font-semibold [&_h3]:text-sm [&_h3]:font-medium [&_li]:ml-5 [&_ol]:list-decimal [&_pre]:overflow-x-auto [&_pre]:rounded [&_pre]:bg-muted [&_pre]:p-2 [&_table]:text-xs [&_td]:border [&_td]:border-border [&_td]:px-2 [&_th]:border [&_th]:border-border [&_th]:px-2 [&_ul]:list-disc">
      {/* Called, not rendered as an element: its tree is what the cache keeps. */}
      {ReactMarkdown({ children: bounded.text, skipHtml: true, remarkPlugins: [remarkGfm], rehypePlugins: [rehypeSanitize] })}
      {notices.map((n) => (
        <p key={n} className="text-xs text-fg-muted" data-testid="markdown-bounds">
          {n}
        </p>
      ))}
    </div>
  );
}

/**
 * Markdown from an indexed repository: raw HTML is dropped and the result sanitized, so a
 * file can never inject markup or script into the page; and it is bounded first (length,
 * nesting, render cost), so one file can never hold the server's event loop for long. The
 * reader is told what was cut or flattened.
 */
export function Markdown({ text }: { text: string }): ReactElement {
  let el = rendered.get(text);
  if (!el) rendered.set(text, (el = render(text)));
  return el;
}
