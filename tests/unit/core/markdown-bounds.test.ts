import fs from "node:fs";
import path from "node:path";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Markdown } from "../../../components/ui/markdown";
import { MARKDOWN_LIMITS, boundMarkdown, boundsNotices } from "../../../lib/core/markdown-bounds";
import { FIXTURES, SAMPLE_SOURCE } from "../../helpers/project-builder";

const render = (text: string) => renderToString(createElement(Markdown, { text }));

/** The deepest element nesting in rendered HTML (void elements do not nest). */
function htmlDepth(html: string): number {
  const VOID = new Set(["br", "hr", "img", "input", "meta", "link", "col", "area", "wbr"]);
  let depth = 0;
  let max = 0;
  for (const m of html.matchAll(/<(\/?)([a-zA-Z][a-zA-Z0-9]*)[^>]*?(\/?)>/g)) {
    if (VOID.has(m[2]!.toLowerCase()) || m[3]) continue;
    depth += m[1] ? -1 : 1;
    max = Math.max(max, depth);
  }
  return max;
}

function markdownFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(".md"))
    .map((e) => path.join(e.parentPath, e.name));
}

const deepList = (levels: number) => Array.from({ length: levels }, (_, i) => `${"  ".repeat(i)}- level ${i}`).join("\n");

// The inputs that overflowed the stack or took seconds to minutes before (see the report on #16).
const PATHOLOGICAL: Record<string, string> = {
  "5,000 nested blockquotes": "> ".repeat(5000) + "x",
  "a list nested 2,000 levels": deepList(2000),
  "a list nested 200 levels": deepList(200),
  "emphasis nested 2,500 levels": "*".repeat(5000) + "x" + "*".repeat(5000),
  "1,000 list markers on a line": "- ".repeat(1000) + "x",
  "5,000 nested link labels": "[".repeat(5000) + "x" + "](y)".repeat(5000),
  "a 500-column table": "|a".repeat(500) + "|\n" + "|-".repeat(500) + "|\n" + ("|x".repeat(500) + "|\n").repeat(50),
  "1 MB of words": "word ".repeat(200_000),
  "40,000 closing emphasis runs in a paragraph": "a* ".repeat(40_000),
  "20,000 mixed emphasis runs": "*a_ ".repeat(20_000),
  "20,000 links in a paragraph": "[a](b) ".repeat(20_000),
  "8,000 setext headings": "a\n=\n".repeat(8000),
  "32,000 list items": "- a\n".repeat(32_000),
  "4,000 lines nested 16 lists deep": ("- ".repeat(16) + "a\n").repeat(4000),
  "64,000 escapes": "\\*".repeat(64_000),
};

describe("boundMarkdown", () => {
  it("leaves every ordinary document (the sample project, the test fixtures) exactly as it is", () => {
    const files = [...markdownFiles(SAMPLE_SOURCE), ...markdownFiles(FIXTURES)];
    expect(files.length).toBeGreaterThan(50);
    for (const file of files) {
      const text = fs.readFileSync(file, "utf8");
      const b = boundMarkdown(text);
      expect({ file, text: b.text, truncatedBytes: b.truncatedBytes, flattened: b.flattened, literal: b.literal }).toEqual({ file, text, truncatedBytes: 0, flattened: 0, literal: 0 });
      expect(boundsNotices(b)).toEqual([]);
    }
  });

  it("keeps CRLF line ends, fenced code and its markup", () => {
    const code = ["```js", "const a = b ** c * d; // *" + "*".repeat(300), "const t = `a|b|c`;", "```"].join("\r\n");
    const text = `# Title\r\n\r\nSome *emphasis* and [a link](x).\r\n\r\n${code}\r\n`;
    expect(boundMarkdown(text).text).toBe(text);
  });

  it.each(Object.entries(PATHOLOGICAL))("bounds %s: renders without throwing, shallow, and a second pass changes nothing", (_name, text) => {
    const b = boundMarkdown(text);
    expect(b.totalBytes).toBe(Buffer.byteLength(text));
    expect(Buffer.byteLength(b.text)).toBeLessThanOrEqual(2 * MARKDOWN_LIMITS.maxBytes);
    const html = render(text);
    // Container nesting is at most 16 levels of markers plus 32 of indentation (64 columns of two-space lists).
    expect(htmlDepth(html)).toBeLessThanOrEqual(2 * (MARKDOWN_LIMITS.maxDepth + MARKDOWN_LIMITS.maxIndent / 2) + 4);
    expect(boundMarkdown(b.text)).toMatchObject({ text: b.text, truncatedBytes: 0, flattened: 0, literal: 0 });
  });

  it("flattens nesting with an invisible character, so the deeper markers show as text", () => {
    const b = boundMarkdown("> ".repeat(5000) + "x");
    expect(b.flattened).toBe(1);
    expect(b.text.startsWith("> ".repeat(16) + "\u200b> > ")).toBe(true);
    expect(b.text.replace("\u200b", "")).toBe("> ".repeat(5000) + "x");
    const html = render("- ".repeat(1000) + "x");
    expect(html.match(/<ul>/g)).toHaveLength(16);
    expect(html).toContain("- - - x");
  });

  it("keeps indentation past 64 columns in code as it looks (the cut is invisible)", () => {
    const deep = " ".repeat(100) + "return x;";
    const b = boundMarkdown("```\n" + deep + "\n```\n");
    expect(b.flattened).toBe(1);
    const code = /<code>([\s\S]*?)<\/code>/.exec(render("```\n" + deep + "\n```\n"))![1]!;
    expect(code.replace(/\u200b/g, "")).toBe(deep + "\n");
  });

  it("escapes emphasis and link labels nested past 16 levels, so they show as text", () => {
    const star = boundMarkdown("*".repeat(5000) + "x" + "*".repeat(5000));
    expect(star.literal).toBe(1);
    expect(star.text).toBe("\\*".repeat(5000) + "x" + "\\*".repeat(5000));
    expect(render("*".repeat(40) + "x" + "*".repeat(40))).toContain("*".repeat(40) + "x" + "*".repeat(40));
    // Sixteen levels are kept.
    expect(boundMarkdown("*".repeat(32) + "x" + "*".repeat(32)).text).toBe("*".repeat(32) + "x" + "*".repeat(32));
    const labels = render("[".repeat(5000) + "x" + "](y)".repeat(5000));
    expect(labels).not.toContain("<a");
    // Markup in code spans is literal already and left alone.
    const spans = "`" + "*".repeat(100) + "` " + "[".repeat(40) + "x" + "]".repeat(40);
    expect(boundMarkdown(spans).text).toBe("`" + "*".repeat(100) + "` " + "\\[".repeat(40) + "x" + "\\]".repeat(40));
  });

  it("shows a table wider than 64 columns as text and keeps one of 64", () => {
    const table = (cols: number) => "|a".repeat(cols) + "|\n" + "|-".repeat(cols) + "|\n" + "|x".repeat(cols) + "|\n";
    expect(render(table(500))).not.toContain("<table");
    expect(boundMarkdown(table(500)).literal).toBeGreaterThan(0);
    expect(boundMarkdown(table(64)).text).toBe(table(64));
    expect(render(table(64))).toContain("<table");
  });

  it("keeps 64 setext headings and shows later underlines as text", () => {
    const html = render("a\n=\n\n".repeat(100));
    expect(html.match(/<h1>/g)).toHaveLength(64);
  });

  it("cuts a long document at a line end and says how much is shown", () => {
    const line = "auth session token rotation paragraph that repeats to fill the file.\n";
    const text = line.repeat(Math.ceil((3 * 1024 * 1024) / line.length));
    const b = boundMarkdown(text);
    expect(b.text.endsWith(".")).toBe(true);
    expect(text.startsWith(b.text)).toBe(true);
    expect(b.truncatedBytes).toBe(Buffer.byteLength(text) - Buffer.byteLength(b.text) - 1);
    expect(Buffer.byteLength(b.text)).toBeLessThanOrEqual(MARKDOWN_LIMITS.maxBytes);
    expect(boundsNotices(b)[0]).toMatch(/^Showing the first \d+ KB of 3\.0 MB/);
    // A single line longer than the cap is cut inside, at a character.
    const one = boundMarkdown("é".repeat(200_000));
    expect(one.text.length).toBeGreaterThan(0);
    expect("é".repeat(200_000).startsWith(one.text)).toBe(true);
    expect(one.truncatedBytes).toBe(400_000 - Buffer.byteLength(one.text));
  });

  it("stops at the render budget: a paragraph of 40,000 closing runs keeps its first few thousand", () => {
    const text = "a* ".repeat(40_000);
    const b = boundMarkdown(text);
    expect(b.truncatedBytes).toBeGreaterThan(0);
    expect(text.startsWith(b.text)).toBe(true);
    expect(b.text.length).toBeGreaterThan(1000);
  });
});

describe("Markdown (the component)", () => {
  it("renders ordinary text without a notice", () => {
    const html = render("# Title\n\nSome *emphasis*.\n");
    expect(html).toContain("<h1>Title</h1>");
    expect(html).not.toContain("markdown-bounds");
  });

  it("says what was cut and flattened", () => {
    const html = render("> ".repeat(5000) + "x\n\n" + "word ".repeat(100_000));
    expect(html).toContain("Nesting deeper than 16 levels or 64 columns is flattened.");
    expect(html).toMatch(/Showing the first \d+ KB of 498 KB/);
  });

  it("renders a text once and reuses the tree for the next request that shows it", () => {
    const text = "## Archaeologist summary\n\n- one\n- two `code`\n\n| a | b |\n|---|---|\n| 1 | 2 |\n";
    const first = Markdown({ text });
    expect(Markdown({ text })).toBe(first);
    expect(Markdown({ text: text + "\nmore\n" })).not.toBe(first);
    expect(renderToString(first)).toContain("<table>");
  });

  it("renders every pathological input in well under the time it took before", () => {
    // Before: stack overflows after 2.5-4 s, 380 s for the 2,000-level list. A generous guard
    // against a regression to that; the shape is checked above.
    for (const text of Object.values(PATHOLOGICAL)) {
      const started = performance.now();
      render(text);
      expect(performance.now() - started).toBeLessThan(5000);
    }
  }, 120_000);
});
