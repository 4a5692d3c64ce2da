/**
 * The seed's two backtracking smell-test regexes, matched in linear time. On a long run of
 * non-space characters (a pasted blob, a minified line) the regexes themselves take
 * quadratic time: seconds for a few hundred KB, which would stall the server and the
 * editor. These scanners return exactly the regexes' matches (a property test checks it).
 */

export const FILE_LINE_RE = /\b\S+\.[a-z]{1,4}:\d+\b/g;
export const PATH_BULLET_RE = /^- \S*[\\/]\S+\.(ts|js|py|go|rs|java)\b/gm;

export interface Match {
  index: number;
  text: string;
}

/**
 * `\b\S+\.[a-z]{1,4}:\d+\b`. `\S+` cannot cross whitespace and greedily reaches the last
 * `.ext:N` of a run, so each run holds at most one match: from the first word boundary
 * before that last suffix to the suffix's end. A run follows whitespace (or the start),
 * so its first word boundary is its first word character.
 */
export function fileLineMatches(text: string): Match[] {
  const out: Match[] = [];
  for (const run of text.matchAll(/\S+/g)) {
    const t = run[0];
    let last: RegExpExecArray | null = null;
    for (const m of t.matchAll(/\.[a-z]{1,4}:\d+(?![A-Za-z0-9_])/g)) last = m;
    if (!last) continue;
    const s = t.slice(0, last.index).search(/[A-Za-z0-9_]/);
    if (s !== -1) out.push({ index: run.index + s, text: t.slice(s, last.index + last[0].length) });
  }
  return out;
}

/**
 * `^- \S*[\\/]\S+\.(ts|js|py|go|rs|java)\b` (multiline). The match lies in the run of
 * non-space characters after "- "; it ends at the run's last `.ext` and needs a slash at
 * least two characters before that dot.
 */
export function pathBulletMatches(text: string): Match[] {
  const out: Match[] = [];
  for (const line of text.matchAll(/^- (\S+)/gm)) {
    const t = line[1]!;
    let last: RegExpExecArray | null = null;
    for (const m of t.matchAll(/\.(?:ts|js|py|go|rs|java)(?![A-Za-z0-9_])/g)) last = m;
    if (!last) continue;
    const slash = t.search(/[\\/]/);
    if (slash === -1 || slash > last.index - 2) continue;
    out.push({ index: line.index, text: "- " + t.slice(0, last.index + last[0].length) });
  }
  return out;
}
