import ReactMarkdown from "react-markdown";
import rehypeSanitize from "rehype-sanitize";
import remarkGfm from "remark-gfm";
import { boundMarkdown, boundsNotices } from "@/lib/core/markdown-bounds";

/**
 * Markdown from an indexed repository: raw HTML is dropped and the result sanitized, so a
 * file can never inject markup or script into the page; and it is bounded first (length,
 * nesting, render cost), so one file can never hold the server's event loop for long. The
 * reader is told what was cut or flattened.
 */
export function Markdown({ text }: { text: string }) {
  const bounded = boundMarkdown(text);
  const notices = boundsNotices(bounded);
  return (
    <div className="prose-sm space-y-2 text-sm leading-relaxed [&_a]:text-accent [&_a]:underline [&_code]:rounded [&_code]:bg-muted [&_code]:px-1 [&_code]:font-mono [&_code]:text-xs [&_h1]:text-base [&_h1]:font-semibold [&_h2]:text-sm [&_h2]:font-semibold [&_h3]:text-sm [&_h3]:font-medium [&_li]:ml-5 [&_ol]:list-decimal [&_pre]:overflow-x-auto [&_pre]:rounded [&_pre]:bg-muted [&_pre]:p-2 [&_table]:text-xs [&_td]:border [&_td]:border-border [&_td]:px-2 [&_th]:border [&_th]:border-border [&_th]:px-2 [&_ul]:list-disc">
      <ReactMarkdown skipHtml remarkPlugins={[remarkGfm]} rehypePlugins={[rehypeSanitize]}>
        {bounded.text}
      </ReactMarkdown>
      {notices.map((n) => (
        <p key={n} className="text-xs text-fg-muted" data-testid="markdown-bounds">
          {n}
        </p>
      ))}
    </div>
  );
}
