import type { FindingFactory } from "./findings";
import type { Line } from "./lines";
import type { Outline, OutlineSection } from "./outline";
import { isPlaceholder, listOf, sectionsOf, trimmedSpan, type Item, type Span } from "./query";
import type { PacketFinding } from "./types";
import { BEHAVIOR_VERBS, findShapePhrase, isBehaviorVerb, whitelistedFormOf } from "./verbs";

/** The first word of a criterion, past leading emphasis or quotes ("**Returns** 404"). */
const FIRST_WORD_RE = /^[*_`"'(]*([A-Za-z][A-Za-z'-]*)/;
const VERB_LIST = BEHAVIOR_VERBS.join(", ");

/**
 * Every criterion is a verb-led testable statement starting with one of the 20 behaviour
 * verbs (Output Format). Only a shape verb is a BLOCK (Constraint 10: "rejected"); a
 * criterion led by another word is a WARN, since the reference's brief template says verbs
 * off the whitelist "may still be valid" and its own bug brief leads with other words.
 * Template placeholder criteria are left to template-placeholder and missing-acceptance.
 */
export function acceptanceFindings(o: Outline, at: FindingFactory): PacketFinding[] {
  const out: PacketFinding[] = [];
  for (const s of sectionsOf(o, "acceptance")) {
    const { items, loose } = listOf(s);
    out.push(...proseFindings(o, s, loose, at));
    for (const item of items) {
      if (isPlaceholder(o, item.line.text)) continue;
      const f = verbFinding(item, at);
      if (f) out.push(f);
      // A verb off the whitelist only warns, so the brief's BLOCK check still applies to the criterion.
      if (o.kind === "brief" && f?.tier !== "BLOCK") {
        const g = independenceFinding(item, at);
        if (g) out.push(g);
      }
    }
  }
  return out;
}

/**
 * Criteria are the section's top-level list items ("- [ ] …", "1. …"); nested bullets are
 * their details. A line of prose there (or text after a brief's label) is not a criterion:
 * the receiver cannot check it off, and it is easy to mistake for one. A WARN, since the
 * seed only asks that the criteria themselves be verb-led.
 */
function proseFindings(o: Outline, s: OutlineSection, loose: Line[], at: FindingFactory): PacketFinding[] {
  const spans: Span[] = [];
  if (s.head && s.inlineStart !== null) {
    const sp = trimmedSpan(o.text, s.inlineStart, s.head.end);
    if (sp) spans.push(sp);
  }
  for (const l of loose) {
    const sp = trimmedSpan(o.text, l.start, l.end);
    if (sp) spans.push(sp);
  }
  return spans
    .filter((sp) => !isPlaceholder(o, sp.text))
    .map((sp) =>
      at({
        rule: "ac-not-a-criterion",
        tier: "WARN",
        message: `Prose in the acceptance criteria is not a criterion: make it one ("- [ ] <behaviour verb> …", one of ${VERB_LIST}) or move it to another section.`,
        offset: sp.offset,
        length: sp.length,
      }),
    );
}

function verbFinding(item: Item, at: FindingFactory): PacketFinding | null {
  const statement = item.text;
  if (!statement.trim()) {
    return at({
      rule: "ac-empty-criterion",
      tier: "WARN",
      message: `Empty acceptance criterion: write a testable statement starting with a behaviour verb (${VERB_LIST}), or delete it.`,
      offset: item.line.start,
      length: item.line.end - item.line.start,
    });
  }
  const span = { offset: item.start, length: statement.length };
  const word = FIRST_WORD_RE.exec(statement)?.[1] ?? "";
  if (isBehaviorVerb(word)) return null;
  const shape = findShapePhrase(statement);
  if (shape) {
    const rest = (statement.slice(0, shape.index) + statement.slice(shape.index + shape.phrase.length)).replace(/\s{2,}/g, " ").trim();
    return at({
      rule: "ac-shape-verb",
      tier: "BLOCK",
      message: `Shape verb "${shape.phrase}" in an acceptance criterion: state what the system does, starting with a behaviour verb (${VERB_LIST}).`,
      ...span,
      suggestion: `[behaviour verb] ${rest}`.trimEnd(),
    });
  }
  const suggestion = verbRewrite(statement, word);
  return at({
    rule: "ac-verb-not-whitelisted",
    tier: "WARN",
    message: word
      ? `Acceptance criterion starts with "${word}", not one of the 20 behaviour verbs. A verb off the list may still be valid if the criterion states observable behaviour; otherwise rewrite it to start with one of: ${VERB_LIST}.`
      : `Acceptance criterion does not start with a word: rewrite it to start with one of the behaviour verbs: ${VERB_LIST}.`,
    ...span,
    ...(suggestion !== null ? { suggestion } : {}),
  });
}

/** The criterion led by the listed form when its first word is an inflection of a verb ("Returned 404" → "returns 404"). */
function verbRewrite(statement: string, word: string): string | null {
  const timesOut = /^times\s+out\b/i.exec(statement);
  if (timesOut) return "times-out" + statement.slice(timesOut[0].length);
  const verb = word ? whitelistedFormOf(word) : null;
  if (!verb) return null;
  const at = statement.indexOf(word);
  return statement.slice(0, at) + verb + statement.slice(at + word.length);
}

/**
 * Briefs: each criterion must pass or fail alone. Heuristic, two signs of a criterion
 * that does not: a reference to another one ("and then", "after the above", "same as
 * previous", "as in criterion 2", "the previous step"), or two behaviours chained with
 * "and" ("returns 404 and logs the attempt": "and" followed by a behaviour verb).
 */
const REFERENCE_RES = [
  /\band then\b|\bthen also\b/i,
  /\b(?:after|once|following|like|unlike) (?:the )?(?:above|previous|prior|preceding|former)(?: (?:criterion|criteria|item|items|step|steps|check|checks|one|ones))?\b/i,
  /\b(?:after|once|following) (?:the )?(?:first|last|other|earlier) (?:criterion|criteria|item|items|step|steps|check|checks)\b/i,
  /\bsame as (?:the )?(?:above|previous|prior|preceding|before|last|first|(?:criterion|item|step|ac) ?#?\d+|#\d+)\b/i,
  /\b(?:as (?:in|per|with|for)|per|see|like|from|after|unlike) (?:the )?(?:criterion|criteria|item|ac|step|check) ?#?\d+\b/i,
  /\b(?:the )?(?:previous|above|prior|preceding) (?:criterion|criteria|item|step|check|one)\b/i,
  /\b(?:as above|see above|the above|from above)\b/i,
];
const CHAIN_RE = new RegExp(`\\band (?:also )?(${BEHAVIOR_VERBS.map((v) => v.replace("-", "\\-")).join("|")})\\b`, "i");

function independenceFinding(item: Item, at: FindingFactory): PacketFinding | null {
  for (const re of REFERENCE_RES) {
    const m = re.exec(item.text);
    if (m) {
      return at({
        rule: "brief-ac-independent",
        tier: "BLOCK",
        message: `Acceptance criterion depends on another ("${m[0]}"): each criterion must pass or fail alone. Restate what it needs instead of referring to another.`,
        offset: item.start + m.index,
        length: m[0].length,
      });
    }
  }
  const chain = CHAIN_RE.exec(item.text);
  if (chain) {
    const first = item.text.slice(0, chain.index).replace(/[\s,;]+$/, "");
    const second = item.text.slice(chain.index + chain[0].length - chain[1]!.length);
    return at({
      rule: "brief-ac-independent",
      tier: "BLOCK",
      message: `Acceptance criterion chains two behaviours ("${chain[0]}"): a bundled criterion hides partial completion. Split it into one criterion per behaviour.`,
      offset: item.start,
      length: item.text.length,
      suggestion: `${first}\n${item.marker}${second}`,
    });
  }
  return null;
}
