import { formatWithOptions } from "node:util";
import { terminalSafe } from "../lib/core/terminal";

/**
 * The only way the CLI writes to stdout and stderr. Human output can carry repository text
 * (titles, summaries, file names), so every control character but newline and tab is written
 * as a visible escape and the terminal acts on none; `line` also escapes newlines, so a file
 * name cannot forge the next progress or warning line. JSON output stays exact JSON.
 */
export interface HumanWriter {
  /** Several lines as they are (a summary, a pack, help, CRLF line ends too), controls escaped. */
  text(s: string): void;
  /** One line (a message naming a file): controls and newlines escaped, a newline appended. */
  line(s: string): void;
}

// A carriage return before a newline moves nothing a reader would miss (Windows line ends in
// repository text); a lone one could hide the start of a line, so it is escaped.
const textSafe = (s: string) => s.split("\r\n").map(terminalSafe).join("\r\n");

function writerFor(stream: NodeJS.WriteStream): HumanWriter {
  return {
    text: (s) => void stream.write(textSafe(s)),
    line: (s) => void stream.write(`${terminalSafe(s).replace(/\n/g, "\\n")}\n`),
  };
}

export const stdout: HumanWriter = writerFor(process.stdout);
export const stderr: HumanWriter = writerFor(process.stderr);

// JSON.stringify escapes C0 controls but writes DEL and C1 (U+009B is CSI) as they are; as
// \u escapes they parse to the same strings. Any other control (only possible in a body that
// is not JSON) is escaped the same way.
const JSON_UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** A JSON text (or a server's body meant as one) with every control a terminal could act on as a \u escape. */
export function jsonTerminalSafe(json: string): string {
  return json.replace(JSON_UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** A JSON text (a server's answer) on stdout as it is, but for those escapes. */
export function writeJsonText(json: string): void {
  process.stdout.write(jsonTerminalSafe(json));
}

/** `--json` output: the value as JSON on stdout, one document ending in a newline. */
export function printJson(value: unknown, indent?: number): void {
  writeJsonText(JSON.stringify(value, null, indent) + "\n");
}

/**
 * Library code logs with console (the co-editing server, the indexer's background steps, the
 * MCP server's redirected logs); in the CLI those lines reach a terminal too, so they go
 * through the same writers. Objects are formatted without colours, which would be escaped.
 */
export function routeConsole(): void {
  const format = (args: unknown[]) => formatWithOptions({ colors: false }, ...args) + "\n";
  console.error = console.warn = (...args: unknown[]) => stderr.text(format(args));
  console.log = console.info = console.debug = (...args: unknown[]) => stdout.text(format(args));
}
