import { afterEach, describe, expect, it, vi } from "vitest";
import { jsonTerminalSafe, printJson, routeConsole, stderr, stdout } from "../../../cli/output";

const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/u;

function capture(stream: NodeJS.WriteStream): { text: () => string } {
  const chunks: string[] = [];
  vi.spyOn(stream, "write").mockImplementation((chunk: string | Uint8Array) => {
    chunks.push(String(chunk));
    return true;
  });
  return { text: () => chunks.join("") };
}

const saved = { error: console.error, warn: console.warn, log: console.log, info: console.info, debug: console.debug };

afterEach(() => {
  Object.assign(console, saved);
  vi.restoreAllMocks();
});

describe("cli/output", () => {
  it("text keeps lines and tabs and spells out every other control", () => {
    const out = capture(process.stdout);
    stdout.text("# Title \u001b]0;t\u0007\n\tbody\r\u009b2J\u007f\n");
    expect(out.text()).toBe("# Title \\x1b]0;t\\x07\n\tbody\\r\\u009b2J\\x7f\n");
  });

  it("text keeps Windows line ends but not a lone carriage return", () => {
    const out = capture(process.stdout);
    stdout.text("first\r\nsecond\rhidden\r\n");
    expect(out.text()).toBe("first\r\nsecond\\rhidden\r\n");
  });

  it("line also spells out newlines, so one message stays one line", () => {
    const err = capture(process.stderr);
    stderr.line("warning: docs/new\nindexed 0 files.md\u001b[2J");
    expect(err.text()).toBe("warning: docs/new\\nindexed 0 files.md\\x1b[2J\n");
  });

  it("printJson writes JSON that parses to the same value, with DEL and C1 as \\u escapes", () => {
    const out = capture(process.stdout);
    const value = { title: "\u001b]0;t\u0007 \u009b31mred\u009b0m \u007f", n: 1, nested: ["\u0085"] };
    printJson(value, 2);
    const text = out.text();
    expect(text).not.toMatch(CONTROL);
    expect(text.endsWith("}\n")).toBe(true);
    expect(JSON.parse(text)).toEqual(value);
    expect(text).toContain("\\u009b31mred\\u009b0m \\u007f");
  });

  it("jsonTerminalSafe leaves JSON without controls byte for byte", () => {
    const json = JSON.stringify({ a: "café — \u202e", b: [1, 2], c: "\\u001b" }, null, 2);
    expect(jsonTerminalSafe(json)).toBe(json);
  });

  it("routeConsole sends library logs through the same escaping", () => {
    const err = capture(process.stderr);
    const out = capture(process.stdout);
    routeConsole();
    console.error("co-editing: could not store %s:", "docs/\u001b]0;t\u0007.md", new Error("bad \u009b2J"));
    console.warn({ file: "\u009b" });
    console.log("log \u001b[2J");
    expect(err.text()).not.toMatch(CONTROL);
    expect(err.text()).toContain("co-editing: could not store docs/\\x1b]0;t\\x07.md: Error: bad \\u009b2J\n");
    expect(out.text()).toBe("log \\x1b[2J\n");
  });
});
