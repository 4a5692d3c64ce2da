import { renderToString } from "react-dom/server";
import Markdown from "react-markdown";
import remarkGfm from "remark-gfm";
import rehypeSanitize from "rehype-sanitize";
import React from "react";
const which = process.argv[2]; const n = Number(process.argv[3]);
const cases = {
  star: () => "*".repeat(n) + "x" + "*".repeat(n),
  bracket: () => "[".repeat(n) + "x" + "](y)".repeat(n),
  dash: () => "- ".repeat(n) + "x",
  quote: () => "> ".repeat(n) + "x",
  list: () => Array.from({ length: n }, (_, i) => `${"  ".repeat(i)}- level ${i}`).join("\n"),
  table: () => "|a".repeat(n) + "|\n" + "|-".repeat(n) + "|\n" + ("|x".repeat(n) + "|\n").repeat(50),
  backtick: () => "`".repeat(n) + "x",
  plain: () => "word ".repeat(n),
  lt: () => "<a ".repeat(n),
  under: () => "_a ".repeat(n),
};
const src = cases[which]();
const t = Date.now();
try { const html = renderToString(React.createElement(Markdown, { remarkPlugins: [remarkGfm], rehypePlugins: [rehypeSanitize], skipHtml: true }, src)); console.log(which, n, "ok", src.length, html.length, Date.now() - t, "ms"); }
catch (e) { console.log(which, n, "fail", e.message.slice(0, 60), Date.now() - t, "ms"); }
