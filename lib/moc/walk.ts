import path from "node:path";
import { extractExcerpts } from "./excerpts";
import { formatPackFitting } from "./format";
import { keywordJudge, type RelevanceJudge, type RelevanceLabel } from "./judge";
import type { KbSource } from "./kb-source";
import { matchedKeywords, promptTokens } from "./keywords";
import { parseIndex, type IndexLink } from "./parse-index";
import { checkTriviality } from "./triviality";
import type { PackResult, SectionVisit, Walk } from "./types";

import { DESCENT_TOKEN_BUDGET, INPUT_TOKEN_BUDGET, MAX_DEPTH, MAX_FILES_READ, NOTE_BUDGET_EXCEEDED, NOTE_FRESH_KB, OVERSIZE_INDEX_LINES } from "./limits";
import { plural } from "../core/plural";

export type { FileVisit, PackResult, SectionVisit, Walk } from "./types";

function summaryLine(prompt: string): string {
  const one = prompt.trim().replace(/\s+/g, " ");
  return one.length <= 120 ? one : `${one.slice(0, 117)}...`;
}

interface Candidate {
  link: IndexLink;
  depth: number;
  matched: string[];
}

/**
 * Steps 1-8 of the context-loader protocol over a docs/ tree. Deterministic with the
 * default judge; reads only what _index.md links reach, at most MAX_DEPTH deep.
 */
export async function buildPack(kb: KbSource, prompt: string, judge: RelevanceJudge = keywordJudge): Promise<PackResult> {
  const tokens = promptTokens(prompt);
  const walk: Walk = {
    prompt,
    trivial: null,
    error: null,
    promptSummary: summaryLine(prompt),
    tokens,
    judge: judge.name,
    sections: [],
    files: [],
    notes: [],
    freshKb: false,
    budgetExceeded: false,
    input: { filesRead: 0, bytesRead: 0, tokensRead: 0 },
  };
  const done = () => {
    walk.input.filesRead = kb.stats.filesRead;
    walk.input.bytesRead = kb.stats.bytesRead;
    walk.input.tokensRead = kb.stats.tokensRead;
    const pack = formatPackFitting(walk);
    return { pack: pack.text, packTokens: pack.tokens, walk };
  };
  const shown = (rel: string) => path.posix.join(kb.docsDir, rel);

  // Step 1.
  const gate = checkTriviality(prompt);
  if (gate.trivial) {
    walk.trivial = { reason: gate.reason };
    return done();
  }

  // Step 2.
  const rootText = await kb.read("_index.md");
  if (rootText === null) {
    walk.error = "kb_not_initialized";
    return done();
  }
  let descentTokens = kb.stats.tokensRead;
  const root = parseIndex(rootText, "_index.md");
  noteIndexProblems(walk, root, "_index.md", shown);
  await noteBrokenFiles(walk, kb, root, "_index.md");
  const readIndex = async (rel: string) => {
    const text = await kb.read(rel);
    descentTokens = kb.stats.tokensRead;
    return text;
  };

  const rootSections = root.links.filter((l) => l.kind === "section");
  const sectionIndexes = new Map<string, ReturnType<typeof parseIndex> | null>();
  for (const s of rootSections) {
    const text = await readIndex(s.resolved!);
    sectionIndexes.set(s.resolved!, text === null ? null : parseIndex(text, s.resolved!));
    if (text === null) walk.notes.push(`Broken link in ${shown("_index.md")}: \`${s.target}\` (${shown(s.resolved!)} ${whyNot(kb, s.resolved!)}); siblings still walked.`);
  }

  // Step 3: most section indexes missing or only placeholders.
  const empty = rootSections.filter((s) => {
    const p = sectionIndexes.get(s.resolved!);
    return !p || p.placeholderOnly;
  }).length;
  if (rootSections.length === 0 || empty / rootSections.length > 0.5) {
    walk.freshKb = true;
    walk.notes.push(NOTE_FRESH_KB);
    return done();
  }

  // Step 4: score the root sections.
  const score = async (links: IndexLink[], depth: number, indexes: Map<string, ReturnType<typeof parseIndex> | null>) => {
    const items = links.map((l) => {
      const idx = indexes.get(l.resolved!);
      const desc = [l.hook, idx?.description ?? ""].filter(Boolean).join(" ");
      return {
        path: shown(l.resolved!),
        name: l.text.replace(/\/$/, ""),
        description: desc,
        matched: matchedKeywords(tokens, `${l.text} ${desc}`),
        indexHead: idx?.head ?? "",
      };
    });
    const labels = await judge.judge(prompt, tokens, items);
    return items.map((it, i) => ({ ...it, depth, label: labels[i] ?? "irrelevant", link: links[i]! }));
  };
  const rootScored = await score(rootSections, 1, sectionIndexes);
  const candidates: Candidate[] = root.links.filter((l) => l.kind === "file").map((l) => ({ link: l, depth: 0, matched: matchedKeywords(tokens, `${l.text} ${l.hook}`) }));

  // Step 5: descend through relevant sections, breadth first, at most depth 3.
  const queue = rootScored.filter((s) => sectionIndexes.get(s.link.resolved!));
  const visits: SectionVisit[] = [];
  for (const s of rootScored) {
    visits.push({
      path: s.path,
      name: s.name,
      depth: 1,
      description: s.description,
      matched: s.matched,
      label: s.label,
      walked: false,
      why: why(s.label, s.matched, judge, s.indexHead, tokens),
    });
  }
  const seen = new Set<string>(["_index.md", ...rootSections.map((s) => s.resolved!)]);
  while (queue.length > 0) {
    const s = queue.shift()!;
    if (s.label !== "relevant") continue;
    const idx = sectionIndexes.get(s.link.resolved!);
    if (!idx) continue;
    const visit = visits.find((v) => v.path === s.path)!;
    visit.walked = true;
    noteIndexProblems(walk, idx, s.link.resolved!, shown);
    await noteBrokenFiles(walk, kb, idx, s.link.resolved!);
    for (const l of idx.links.filter((x) => x.kind === "file")) {
      candidates.push({ link: l, depth: s.depth, matched: matchedKeywords(tokens, `${l.text} ${l.hook}`) });
    }
    const children = idx.links.filter((x) => x.kind === "section" && !seen.has(x.resolved!));
    if (s.depth >= MAX_DEPTH) {
      if (children.length) walk.notes.push(`${s.path}: ${plural(children.length, "deeper section")} not walked (depth limit ${MAX_DEPTH}).`);
      continue;
    }
    const childIndexes = new Map<string, ReturnType<typeof parseIndex> | null>();
    for (const c of children) {
      seen.add(c.resolved!);
      if (descentTokens > DESCENT_TOKEN_BUDGET) break;
      const text = await readIndex(c.resolved!);
      childIndexes.set(c.resolved!, text === null ? null : parseIndex(text, c.resolved!));
      if (text === null) walk.notes.push(`Broken link in ${s.path}: \`${c.target}\` (${shown(c.resolved!)} ${whyNot(kb, c.resolved!)}); siblings still walked.`);
    }
    if (descentTokens > DESCENT_TOKEN_BUDGET) {
      walk.budgetExceeded = true;
      break;
    }
    for (const c of await score(
      children.filter((x) => childIndexes.has(x.resolved!)),
      s.depth + 1,
      childIndexes,
    )) {
      sectionIndexes.set(c.link.resolved!, childIndexes.get(c.link.resolved!) ?? null);
      visits.push({ path: c.path, name: c.name, depth: c.depth, description: c.description, matched: c.matched, label: c.label, walked: false, why: why(c.label, c.matched, judge, c.indexHead, tokens) });
      if (c.label === "relevant" && childIndexes.get(c.link.resolved!)) queue.push(c);
    }
  }

  if (walk.budgetExceeded) {
    // Fallback: root-level sections only, nothing read below them.
    walk.sections = visits.filter((v) => v.depth === 1).map((v) => ({ ...v, walked: false }));
    walk.notes.push(NOTE_BUDGET_EXCEEDED);
    return done();
  }
  walk.sections = visits;
  for (const v of visits) if (v.label === "maybe") walk.notes.push(`Maybe relevant, not walked: ${v.path} (${v.why}).`);

  // Step 6: read the top files, most keyword matches first, then the shallower.
  const unique = new Map<string, Candidate>();
  for (const c of candidates) if (!unique.has(c.link.resolved!)) unique.set(c.link.resolved!, c);
  const ranked = [...unique.values()].filter((c) => c.matched.length > 0).sort((a, b) => b.matched.length - a.matched.length || a.depth - b.depth || (a.link.resolved! < b.link.resolved! ? -1 : 1));
  let readCount = 0;
  for (const c of ranked) {
    const rel = c.link.resolved!;
    const base = { path: shown(rel), depth: c.depth, hook: c.link.hook, matched: c.matched };
    if (readCount >= MAX_FILES_READ) {
      walk.files.push({ ...base, status: "noted", reason: "possibly relevant; skipped to stay in budget", excerpts: [] });
      continue;
    }
    const size = await kb.size(rel);
    if (size === null) continue; // a broken link, already noted
    // The seed's input target: a file whose size says it would push the walk past it
    // is noted instead of read (about four bytes to a token).
    if (kb.stats.tokensRead + Math.ceil(size / 4) > INPUT_TOKEN_BUDGET) {
      walk.files.push({ ...base, status: "noted", reason: "possibly relevant; skipped to stay in the input budget", excerpts: [] });
      continue;
    }
    const text = await kb.read(rel);
    if (text === null) {
      walk.files.push({ ...base, status: "noted", reason: "could not be read", excerpts: [] });
      walk.notes.push(`${shown(rel)} could not be read (it ${whyNot(kb, rel)}).`);
      continue;
    }
    readCount++;
    walk.files.push({ ...base, status: "read", reason: `matched: ${c.matched.join(", ")}`, excerpts: extractExcerpts(text, tokens) });
  }
  return done();
}

function why(label: RelevanceLabel, matched: string[], judge: RelevanceJudge, indexHead = "", tokens: string[] = []): string {
  if (matched.length) return `matched ${matched.join(", ")}${label !== "relevant" ? `; ${judge.name} says ${label}` : ""}`;
  if (label === "irrelevant") return "no keyword overlap";
  const inIndex = matchedKeywords(tokens, indexHead);
  return inIndex.length && label === "relevant" ? `${judge.name}: its index mentions ${inIndex.join(", ")}` : `${judge.name} says ${label}`;
}

/** Broken content links of a walked index (checking a link target is the only listing allowed). */
async function noteBrokenFiles(walk: Walk, kb: KbSource, idx: ReturnType<typeof parseIndex>, rel: string): Promise<void> {
  for (const l of idx.links) {
    if (l.kind !== "file") continue;
    if ((await kb.kind(l.resolved!)) !== "file") {
      walk.notes.push(`Broken link in ${path.posix.join(kb.docsDir, rel)}: \`${l.target}\` (${path.posix.join(kb.docsDir, l.resolved!)} ${whyNot(kb, l.resolved!)}); siblings still walked.`);
    }
  }
}

/** The protocol's "is missing", or what the file layer found instead (a pipe, a link out, a loop). */
function whyNot(kb: KbSource, rel: string): string {
  return kb.why?.(rel) ?? "is missing";
}

function noteIndexProblems(walk: Walk, idx: ReturnType<typeof parseIndex>, rel: string, shown: (r: string) => string): void {
  if (idx.lineCount > OVERSIZE_INDEX_LINES) {
    walk.notes.push(`${shown(rel)} has ${idx.lineCount} lines, over the ${OVERSIZE_INDEX_LINES}-line rule; read anyway (a job for context-keeper).`);
  }
  for (const e of idx.escaping) walk.notes.push(`${shown(rel)} links outside docs/: \`${e.target}\`; not followed.`);
}
