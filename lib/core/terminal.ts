/**
 * Untrusted text on its way to a terminal. Repository text can carry control sequences
 * (ESC ]0;… BEL retitles the window, ESC [2J clears it, OSC 8 hides a link behind words,
 * CSI as the single C1 byte U+009B): each C0 and C1 control except newline and tab, and DEL,
 * is written as a visible escape instead (`\x1b`, `\u009b`), so the terminal shows the bytes
 * and acts on none. JSON output is left to JSON.stringify, which escapes C0 itself.
 */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

export function terminalSafe(text: string): string {
  return text.replace(CONTROL, (c) => {
    const code = c.charCodeAt(0);
    if (code === 0x0d) return "\\r";
    return code < 0x80 ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
  });
}
