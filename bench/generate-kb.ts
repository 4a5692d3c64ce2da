/**
 * Synthetic docs/ maps of content for the context-loader benchmark, deterministic from
 * the parameters: `indexes` section indexes spread over depths 1-4, and `files` content
 * files linked from them, with hooks and bodies drawn from a fixed vocabulary.
 */
import fs from "node:fs";
import path from "node:path";

const TOPICS = [
  "payments webhook retry",
  "authentication sessions cookies",
  "exports csv queue",
  "billing invoices tax",
  "search indexing relevance",
  "notifications email templates",
  "deploy pipeline rollback",
  "database migrations schema",
  "caching redis eviction",
  "observability metrics alerts",
  "rate limits quotas",
  "frontend storefront checkout",
];

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

export interface KbSpec {
  indexes: number;
  files: number;
  seed?: number;
}

export function generateKb(root: string, spec: KbSpec): { indexes: number; files: number } {
  const rand = rng(spec.seed ?? 7);
  const docs = path.join(root, "docs");
  fs.rmSync(docs, { recursive: true, force: true });
  fs.mkdirSync(docs, { recursive: true });
  // A tree: 8 root sections, the rest attached under random earlier sections (depth ≤ 4).
  const sections: { rel: string; depth: number; topic: string; children: string[]; files: string[] }[] = [];
  for (let i = 0; i < spec.indexes; i++) {
    const topic = TOPICS[Math.floor(rand() * TOPICS.length)]!;
    const name = `${topic.split(" ")[0]}-${i}`;
    if (i < 8) sections.push({ rel: name, depth: 1, topic, children: [], files: [] });
    else {
      const candidates = sections.filter((s) => s.depth < 4);
      const parent = candidates[Math.floor(rand() * candidates.length)]!;
      const rel = `${parent.rel}/${name}`;
      parent.children.push(name);
      sections.push({ rel, depth: parent.depth + 1, topic, children: [], files: [] });
    }
  }
  for (let f = 0; f < spec.files; f++) {
    const s = sections[Math.floor(rand() * sections.length)]!;
    s.files.push(`note-${f}.md`);
  }
  const write = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(docs, rel)), { recursive: true });
    fs.writeFileSync(path.join(docs, rel), text);
  };
  const root_ = sections.filter((s) => s.depth === 1);
  write("_index.md", ["# Docs — root index", "", "> The map of everything written down.", "", "## Sections", "", ...root_.map((s) => `- [${s.rel}/](./${s.rel}/) — ${s.topic} and related notes`), ""].join("\n"));
  for (const s of sections) {
    const lines = [`# ${path.basename(s.rel)}/`, "", `> Notes about ${s.topic}.`, "", `**Path:** docs/${s.rel}/`, ""];
    if (s.children.length) lines.push("## Sections", ...s.children.map((c) => `- [${c}/](./${c}/) — more on ${s.topic}`), "");
    if (s.files.length) {
      lines.push("## Content", ...s.files.map((f, i) => `- [${f}](./${f}) — ${TOPICS[(i + s.depth) % TOPICS.length]} (${s.topic})`), "");
    }
    write(`${s.rel}/_index.md`, lines.join("\n"));
    s.files.forEach((f, i) => {
      const t = TOPICS[(i + s.depth) % TOPICS.length]!;
      write(
        `${s.rel}/${f}`,
        [
          `# ${t}`,
          "",
          `**Tags:** ${t.replace(/ /g, ", ")}`,
          "",
          "## Context",
          `How ${t} works here, and what broke last time.`,
          "The retry policy and the failure modes are described below.",
          "",
          "## Detail",
          ...Array.from({ length: 20 }, (_, k) => `Line ${k} about ${t}: details that matter when ${t.split(" ")[1]} fails.`),
          "",
        ].join("\n"),
      );
    });
  }
  return { indexes: sections.length, files: spec.files };
}
