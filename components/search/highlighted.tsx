import { snippetParts } from "@/lib/search/text";

/** A snippet or title with the matched words marked (`<mark>`); the text is never parsed as HTML. */
export function Highlighted({ text, className }: { text: string; className?: string }) {
  return (
    <span className={className}>
      {snippetParts(text).map((p, i) =>
        p.hit ? (
          <mark key={i} className="rounded-sm bg-warn/30 px-0.5 text-fg">
            {p.text}
          </mark>
        ) : (
          <span key={i}>{p.text}</span>
        ),
      )}
    </span>
  );
}
