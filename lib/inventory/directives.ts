import type { FlaggedDirective } from "./types";

/**
 * Lines in untrusted content that read as instructions to an agent (prompt-defense:
 * override patterns, role impersonation, embedded actions, obfuscation). They are
 * shown as flagged data; nothing acts on them.
 */
const RULES: { rule: string; re: RegExp }[] = [
  { rule: "override", re: /\b(ignore|disregard|forget|override)\b.{0,40}\b(previous|prior|above|all|earlier|any)\b.{0,30}\b(instructions?|rules?|prompts?|directions?|guidelines?)\b/i },
  { rule: "role-impersonation", re: /^\W*(system|assistant|developer)\s*(prompt)?\s*:/i },
  { rule: "role-change", re: /\byou are now\b|\bact as (an? )?(admin|root|system)\b|\b(admin|developer|god) mode\b/i },
  { rule: "embedded-action", re: /\b(run|execute|exec)\b.{0,40}(`[^`]+`|\brm -rf\b|\bcurl\b|\bwget\b|\bgit push\b|\bsudo\b)/i },
  { rule: "embedded-action", re: /\b(delete|drop|wipe|truncate|erase)\b.{0,30}\b(audit|logs?|database|tables?|history|backups?)\b/i },
  { rule: "new-instructions", re: /\b(new|updated|real|actual) instructions?\b|<\/?(system|instructions?)>/i },
  { rule: "concealment", re: /\bdo(n'?t| not) (tell|inform|mention|show)\b.{0,30}\b(user|human|anyone)\b/i },
  { rule: "hidden-characters", re: /[\u200B-\u200F\u202A-\u202E\u2066-\u2069]/ },
];

export function flagDirectives(text: string, relPath: string, lineOffset = 0): FlaggedDirective[] {
  const out: FlaggedDirective[] = [];
  const lines = text.split(/\r?\n/);
  lines.forEach((line, i) => {
    for (const { rule, re } of RULES) {
      if (re.test(line)) {
        out.push({ relPath, line: i + 1 + lineOffset, text: line.trim().slice(0, 240), rule });
        break;
      }
    }
  });
  return out;
}

export interface ContentBoundary {
  kind: "UNTRUSTED-CONTENT" | "ARCHIVED-CONTENT";
  source: string;
  /** 1-based line numbers of the START and END markers (END null when missing). */
  startLine: number;
  endLine: number | null;
}

const START = /<!--\s*(UNTRUSTED-CONTENT|ARCHIVED-CONTENT):START\s*(.*?)\s*-->/;
const END = /<!--\s*(UNTRUSTED-CONTENT|ARCHIVED-CONTENT):END\s*(.*?)\s*-->/;

/** Boundary markers in a file, in order. A marker inside a block proves nothing about its author. */
export function findBoundaries(text: string): ContentBoundary[] {
  const out: ContentBoundary[] = [];
  let open: ContentBoundary | null = null;
  text.split(/\r?\n/).forEach((line, i) => {
    const s = START.exec(line);
    if (s && !open) {
      open = { kind: s[1] as ContentBoundary["kind"], source: s[2] ?? "", startLine: i + 1, endLine: null };
      out.push(open);
      return;
    }
    const e = END.exec(line);
    if (e && open && e[1] === open.kind) {
      open.endLine = i + 1;
      open = null;
    }
  });
  return out;
}

export function hasBoundary(text: string): boolean {
  return START.test(text);
}
