/** Deterministic stand-ins for the seed's "summarize": pull structure out of markdown. */

/** ISO-8601 UTC for anything Date can read; null otherwise. Keeps text order equal to time order. */
export function normalizeTimestamp(v: unknown): string | null {
  if (typeof v !== "string" || v.trim() === "") return null;
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? null : d.toISOString().replace(".000Z", "Z");
}

export function firstHeading(md: string): string | null {
  const m = /^#\s+(.+?)\s*#*\s*$/m.exec(md);
  return m?.[1]?.trim() || null;
}

/** Bullets (`- x`, `* x`, `1. x`) under the first heading whose text matches `heading`. */
export function bulletsUnder(md: string, heading: RegExp, max = 10): string[] {
  const lines = md.split(/\r?\n/);
  const out: string[] = [];
  let inSection = false;
  let level = 0;
  for (const line of lines) {
    const h = /^(#{1,6})\s+(.*)$/.exec(line);
    if (h) {
      const hl = h[1]!.length;
      if (inSection && hl <= level) break;
      if (!inSection && heading.test(h[2]!)) {
        inSection = true;
        level = hl;
      }
      continue;
    }
    if (!inSection) continue;
    const b = /^\s*(?:[-*+]|\d+\.)\s+(?:\[[ xX]\]\s+)?(.+)$/.exec(line);
    if (b && /^\S/.test(line.replace(/^\s{0,1}/, ""))) {
      out.push(b[1]!.trim());
      if (out.length >= max) break;
    }
  }
  return out;
}

/** `Key: value` or `**Key:** value` on its own line. */
export function fieldLine(md: string, key: string): string | null {
  const re = new RegExp(`^\\s*(?:\\*\\*)?${key}(?:\\*\\*)?\\s*:\\s*(?:\\*\\*)?\\s*(.+?)\\s*$`, "im");
  const m = re.exec(md);
  return m?.[1]?.replace(/\*\*/g, "").trim() || null;
}

export function countHeadings(md: string, re: RegExp): number {
  return md.split(/\r?\n/).filter((l) => /^#{1,6}\s/.test(l) && re.test(l.replace(/^#+\s*/, ""))).length;
}

/** The first `n` non-empty lines, for excerpts. */
export function headLines(md: string, n: number): string {
  return md
    .split(/\r?\n/)
    .filter((l) => l.trim() !== "")
    .slice(0, n)
    .join("\n");
}
