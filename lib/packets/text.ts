/** Small string helpers shared by the parser, the renderer and the checks. */

/** Without leading blank lines and trailing whitespace: the form every parsed string takes. */
export function tidy(s: string): string {
  return s.replace(/^(?:[ \t]*\n)+/, "").trimEnd();
}

/** LF line breaks and no byte-order mark: what parsing and rendering work on. */
export function normaliseNewlines(s: string): string {
  return s.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
}
