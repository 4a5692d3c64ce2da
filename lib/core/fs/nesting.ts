/**
 * Nesting depth of JSON and YAML text, measured before parsing: a file nested thousands deep
 * is refused up front instead of overflowing the stack of whatever walks the parsed value
 * (structuredClone, zod, JSON.stringify, a recursive renderer). Both scans are iterative.
 */

/** Deepest `[`/`{` nesting outside strings; stops counting once past `limit`. */
export function jsonNestingDepth(text: string, limit = Infinity): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 91 /* [ */ || c === 123 /* { */) {
      if (++depth > max) {
        max = depth;
        if (max > limit) return max;
      }
    } else if (c === 93 /* ] */ || c === 125 /* } */) depth--;
  }
  return max;
}

/**
 * An upper bound on YAML nesting: flow brackets outside quotes, plus block levels (each
 * deeper indentation, and each `- ` or `? ` opening a nested node on the same line).
 */
export function yamlNestingDepth(text: string, limit = Infinity): number {
  let max = 0;
  const indents: number[] = [];
  let flow = 0;
  let pos = 0;
  while (pos <= text.length) {
    let end = text.indexOf("\n", pos);
    if (end === -1) end = text.length;
    let i = pos;
    while (i < end && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i++;
    const blank = i === end || text.charCodeAt(i) === 35; /* # */
    if (!blank && flow === 0) {
      const indent = i - pos;
      while (indents.length && indents[indents.length - 1]! >= indent) indents.pop();
      indents.push(indent);
      let level = indents.length;
      // "- - - x" nests a sequence per dash on one line.
      while (i + 1 < end && (text[i] === "-" || text[i] === "?") && (text[i + 1] === " " || text[i + 1] === "\t")) {
        level++;
        i += 2;
        while (i < end && text.charCodeAt(i) === 32) i++;
      }
      if (level > max) max = level;
    }
    let quote = 0;
    for (let k = i; k < end; k++) {
      const c = text.charCodeAt(k);
      if (quote) {
        if (c === 92 && quote === 34) k++;
        else if (c === quote) quote = 0;
        continue;
      }
      if (c === 34 || c === 39) quote = c;
      else if (c === 35 && (k === pos || text.charCodeAt(k - 1) === 32)) break;
      else if (c === 91 || c === 123) {
        flow++;
        if (indents.length + flow > max) max = indents.length + flow;
      } else if ((c === 93 || c === 125) && flow > 0) flow--;
    }
    if (max > limit) return max;
    pos = end + 1;
  }
  return max;
}
