/**
 * `workbench pack validate`, the command's work: cli/commands/pack-command.ts registers it and
 * imports this module only when it runs, so the CLI's start (and its --help) loads none of it.
 */
import { WorkbenchError, isWorkbenchError } from "../../lib/core/errors";
import { type NamedFileErrorDetails, readRegularFileSync } from "../../lib/core/fs/named-file";
import { seedRefText } from "../../lib/packets/seed-refs";
import type { ValidationResult } from "../../lib/packets/types";
import { PACKET_MAX_CHARS } from "../../lib/packets/limits";
import { parseTaskTokens } from "../../lib/packets/task-size";
import { printJson, stderr, stdout } from "../output";

/** Exit codes: 0 emission allowed, 1 a BLOCK finding refuses it, 2 the command could not validate (usage, unreadable file). */
const EXIT_REFUSED = 1;
const EXIT_USAGE = 2;

/**
 * The report for a terminal: one `file:line:col  TIER  rule  message` line per finding,
 * then the seed line its tier comes from (and a rewrite, when there is one).
 */
export function formatValidation(file: string, v: ValidationResult, warningText: (f: ValidationResult["findings"][number]) => string): string {
  const out: string[] = [];
  out.push(`${v.kind === "brief" ? "Agent Brief" : "Context Packet"}: ${file}`);
  for (const f of v.findings) {
    out.push(`${file}:${f.line}:${f.column}  ${f.tier.padEnd(5)}  ${f.rule}  ${f.message}`);
    out.push(`    ${seedRefText(f.seedRef)}: ${JSON.stringify(f.seedRef.quote)}`);
    if (f.suggestion !== undefined) out.push(`    suggestion: ${f.suggestion === "" ? "(delete it)" : JSON.stringify(f.suggestion)}`);
  }
  if (v.findings.length === 0) out.push("no findings");
  out.push(`tokens: ${v.token_estimate} of ${v.budget} (${v.tokenizer})`);
  out.push(
    v.task_tokens_source === "caller"
      ? `task size: ${v.task_tokens} tokens (given with --task-tokens)`
      : `task size: ${v.task_tokens} tokens (the packet's own estimate; give the delegated task's size with --task-tokens N)`,
  );
  out.push(`completeness: ${v.completeness}`);
  const shown = new Set(v.findings.filter((f) => f.tier === "WARN").map(warningText));
  const missing = v.warnings.filter((w) => !shown.has(w));
  if (missing.length) {
    out.push("missing context:");
    for (const w of missing) out.push(`  - ${w}`);
  }
  const blocks = v.findings.filter((f) => f.tier === "BLOCK").length;
  const warns = v.findings.length - blocks;
  out.push(v.emittable ? `emit: allowed${warns ? ` (${warns} WARN)` : ""}` : `emit: refused (${blocks} BLOCK${warns ? `, ${warns} WARN` : ""})`);
  return out.join("\n") + "\n";
}

/** The file's text, or a WorkbenchError that names the file (a pipe or device is refused, never waited on). */
async function readPacketFile(file: string, maxChars: number): Promise<string> {
  let bytes: Buffer;
  try {
    // UTF-8 takes at most 4 bytes a character: a larger file cannot be within the limit.
    bytes = readRegularFileSync(file, maxChars * 4);
  } catch (e) {
    const d = (e as WorkbenchError).details as NamedFileErrorDetails | undefined;
    if (d?.reason === "missing" || d?.errno === "ENOTDIR") throw new WorkbenchError("NOT_FOUND", `No file at ${file}`, e);
    if (d?.reason === "not_regular") throw new WorkbenchError("INVALID_INPUT", `${file} is not a file${d.special && d.special !== "a folder" ? ` (${d.special})` : ""}`, e);
    if (d?.reason === "too_large") throw new WorkbenchError("TOO_LARGE", `${file} is too large for a packet (the limit is ${maxChars.toLocaleString("en")} characters)`, e);
    throw new WorkbenchError("UNREADABLE", `Cannot read ${file} (${d?.errno ?? "error"})`, e);
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch (e) {
    throw new WorkbenchError("UNREADABLE", `${file} is not UTF-8 text`, e);
  }
  if (text.length > maxChars) throw new WorkbenchError("TOO_LARGE", `${file} is too large for a packet (${text.length.toLocaleString("en")} characters; the limit is ${maxChars.toLocaleString("en")})`);
  return text;
}

/** `--task-tokens` as a number; null when absent. */
function taskTokensOption(raw: string | undefined): number | null {
  if (raw === undefined) return null;
  const r = raw.trim() === "" ? ({ ok: false, error: "The task size is empty." } as const) : parseTaskTokens(raw);
  if (!r.ok) throw new WorkbenchError("INVALID_INPUT", `--task-tokens: ${r.error}`);
  return r.value;
}

/** The action of `workbench pack validate <file>`: prints the report (or JSON) and sets the exit code. */
export async function runPackValidate(file: string, opts: { json?: boolean; taskTokens?: string }, setCode: (c: number) => void): Promise<void> {
  const { validatePacket, warningText } = await import("../../lib/packets/validate");
  let text: string;
  let taskTokens: number | null;
  try {
    taskTokens = taskTokensOption(opts.taskTokens);
    text = await readPacketFile(file, PACKET_MAX_CHARS);
  } catch (e) {
    if (!isWorkbenchError(e)) throw e;
    stderr.line(`ERROR: ${e.message}`);
    setCode(EXIT_USAGE);
    return;
  }
  const v = validatePacket(text, { taskTokens });
  if (opts.json) printJson(v, 2);
  else stdout.text(formatValidation(file, v, warningText));
  setCode(v.emittable ? 0 : EXIT_REFUSED);
}
