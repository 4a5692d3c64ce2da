/**
 * An evidence reference as agents write it, split into the project path it names and what it
 * points at inside that file. agent-collab records cite pytest node ids
 * (`tests/test_harness_policy.py::test_override_must_be_authorized_before_original_limit_is_exhausted`),
 * editors and reviews cite line ranges, and only the path part decides whether a ref resolves.
 *
 * Accepted forms (the first that matches wins):
 *  - `scheme://…` (a URL): not a project path.
 *  - `path::Name[::Name…][params]`: a pytest node id or a `file::symbol` ref. The symbol looked
 *    for is the last name, without a parametrization suffix (`::TestC::test_x[a-1]` → `test_x`)
 *    and without a trailing `()`; for a dotted name, its last part.
 *  - `path#L10`, `path#L10-L20`, `path#L10-20`: a line range. Any other `#fragment` is an anchor,
 *    kept and not checked (`docs/a.md#setup`).
 *  - `path:10`, `path:10-20`, `path:10:5` (line, column as compilers print it): a line range.
 *  - `path:symbol`, only where unambiguous: one colon, the path part names a file (it has a `/`
 *    or an extension, and is not a drive letter), and the symbol is an identifier or a dotted
 *    name (`src/auth/session.ts:SessionService.revoke`). `sqlite:events`, `C:notes` or
 *    `card:my-ref` are not split and stay whole paths (so missing, as before).
 *  - anything else: a plain path, as written.
 */
const IDENT = String.raw`[A-Za-z_$][\w$]*`;
/** A name (`test_x`), a dotted name (`SessionService.revoke`), optionally called (`revoke()`). */
const DOTTED = new RegExp(String.raw`^${IDENT}(?:\.${IDENT})*(?:\(\))?$`);
const HASH_LINES = /^(.+)#L(\d+)(?:-L?(\d+))?$/;
const COLON_LINES = /^(.+?):(\d+)(?:(-)(\d+)|:\d+)?$/;

export interface EvidenceRef {
  /** The ref exactly as the proposal writes it. */
  ref: string;
  /** Which of the accepted forms the ref is written in. */
  form: "url" | "path" | "node_id" | "symbol" | "lines";
  /** The project-relative path part that must resolve; null for a URL or a blank ref. */
  path: string | null;
  /** The symbol named inside the file: what follows the path as written, and the name searched for. */
  symbol: { written: string; lookFor: string } | null;
  /** The cited line range, 1-based and inclusive. */
  lines: { start: number; end: number } | null;
  /** A `#fragment` that is not a line range: kept, not checked. */
  fragment: string | null;
}

function base(ref: string, form: EvidenceRef["form"], path: string | null): EvidenceRef {
  return { ref, form, path, symbol: null, lines: null, fragment: null };
}

/** The last name of a symbol chain: `TestC::test_x[a-1]` → `test_x`, `Foo.bar()` → `bar`. */
function lastName(chain: string): string {
  const last = chain.split("::").pop() ?? "";
  return last.replace(/\(\)$/, "").split(".").pop() ?? "";
}

/** `TestC::test_x[a-1]`: names joined by `::`, the last one optionally parametrized. */
function nodeIdTail(rest: string): string | null {
  const bracket = rest.indexOf("[");
  const names = bracket >= 0 && rest.endsWith("]") ? rest.slice(0, bracket) : rest;
  const parts = names.split("::");
  return parts.length > 0 && parts.every((p) => DOTTED.test(p)) ? lastName(names) : null;
}

/** A path part that can only be a file: it has a folder or an extension, and is no drive letter. */
function looksLikeFile(p: string): boolean {
  if (/^[A-Za-z]$/.test(p) || /\s/.test(p)) return false;
  return p.includes("/") || /\.[A-Za-z0-9]+$/.test(p);
}

export function parseEvidenceRef(raw: string): EvidenceRef {
  const ref = raw.trim();
  if (!ref) return base(raw, "path", null);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(ref)) return base(raw, "url", null);
  // Not a colon of a drive letter (`C:\x` or `C:/x`): such a path is absolute, reported as outside.
  const drive = /^[A-Za-z]:[\\/]/.test(ref) ? 2 : 0;

  const sep = ref.indexOf("::", drive);
  if (sep > 0) {
    const tail = nodeIdTail(ref.slice(sep + 2));
    if (tail) return { ...base(raw, "node_id", ref.slice(0, sep)), symbol: { written: ref.slice(sep + 2), lookFor: tail } };
  }

  const hashAt = ref.indexOf("#");
  if (hashAt > 0) {
    const m = HASH_LINES.exec(ref);
    if (m && !m[1]!.includes("#")) return lineRef(raw, m[1]!, Number(m[2]), m[3] === undefined ? Number(m[2]) : Number(m[3]));
    return { ...base(raw, "path", ref.slice(0, hashAt)), fragment: ref.slice(hashAt + 1) };
  }

  const lm = COLON_LINES.exec(ref.slice(drive));
  if (lm) return lineRef(raw, ref.slice(0, drive) + lm[1]!, Number(lm[2]), lm[3] ? Number(lm[4]) : Number(lm[2]));

  const colon = ref.indexOf(":", drive);
  if (colon > 0 && ref.indexOf(":", colon + 1) < 0) {
    const p = ref.slice(0, colon);
    const sym = ref.slice(colon + 1);
    if (looksLikeFile(p.slice(drive)) && DOTTED.test(sym)) return { ...base(raw, "symbol", p), symbol: { written: sym, lookFor: lastName(sym) } };
  }
  return base(raw, "path", ref);
}

function lineRef(raw: string, path: string, start: number, end: number): EvidenceRef {
  return { ...base(raw, "lines", path), lines: { start, end } };
}
