/**
 * Where to go after signing in: a path on this site, never another origin. Anything else
 * (absolute URLs, protocol-relative `//host`, `/\host`, which browsers read as `//host`,
 * control characters) is replaced by the home page, and so is the sign-in page itself (a loop).
 */
export function safeNext(raw: string | string[] | null | undefined): string {
  const next = Array.isArray(raw) ? raw[0] : raw;
  if (!next || !next.startsWith("/") || next.startsWith("//") || next.startsWith("/\\")) return "/";
  if (/[\u0000-\u001f\u007f\\]/.test(next)) return "/";
  const base = "http://workbench.invalid";
  let url: URL;
  try {
    url = new URL(next, base);
  } catch {
    return "/";
  }
  if (url.origin !== base) return "/";
  // Dot segments can normalise into `//host` ("/a/../..//host"): check what is actually returned.
  if (url.pathname.startsWith("//") || url.pathname === "/sign-in") return "/";
  return url.pathname + url.search + url.hash;
}
