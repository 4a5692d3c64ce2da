import path from "node:path";
import { isWorkbenchError } from "../../core/errors";
import type { ProjectFs } from "../../core/project-fs";
import { refusalOf } from "../../core/fs/refusal";
import type { FileWarning } from "../../core/warnings";
import { TOO_DEEP_REASON, parseBoundedJson } from "../bounded-json";
import { readJsonlLines } from "../convergence";
import { LOOP_FILES, type RunPacket } from "../discover";
import { runExecutors, seatFileLabels } from "./executors";

/** What the run list shows; the run page reads the packet itself. */
export interface RunSummary extends RunPacket {
  scope: string | null;
  status: string | null;
  iterations: number;
  decision: string | null;
  stopReason: string | null;
  findings: number | null;
  lastEventAt: string | null;
  corruptLines: number;
  /** The run's executors (see executors.ts), by label. */
  executors: string[];
}

const str = (v: unknown) => (typeof v === "string" && v.trim() ? v : null);

/** Reads a packet's state log (never writing to it) into a list row; problems become warnings. */
export async function summarizeRun(pfs: ProjectFs, packet: RunPacket, warn: (w: FileWarning) => void): Promise<RunSummary> {
  const files = LOOP_FILES[packet.loopType];
  const logRel = path.posix.join(packet.relPath, files.state);
  let text = "";
  try {
    text = packet.hasState ? await pfs.readText(logRel, { kind: "log" }) : "";
  } catch (e) {
    if (!isWorkbenchError(e)) throw e;
    warn({ relPath: logRel, code: refusalOf(e) ?? (e.code === "TOO_LARGE" ? "too_large" : "unreadable"), message: e.message });
  }
  const { lines, warnings } = readJsonlLines(text);
  for (const w of warnings.slice(0, 20)) {
    warn({ relPath: logRel, field: `line ${w.line}`, code: w.error === TOO_DEEP_REASON ? "too_deep" : "corrupt_json", message: `${logRel}: line ${w.line} is not a valid record (${w.error}); the other lines are used.` });
  }
  let config: Record<string, unknown> | null = null;
  if (packet.hasConfig) {
    const cfgRel = path.posix.join(packet.relPath, files.config);
    try {
      const parsed = parseBoundedJson(await pfs.readText(cfgRel));
      if (parsed.ok) config = parsed.value && typeof parsed.value === "object" ? (parsed.value as Record<string, unknown>) : null;
      else warn({ relPath: cfgRel, code: parsed.tooDeep ? "too_deep" : "corrupt_json", message: `${cfgRel}: not readable JSON (${parsed.error.split("\n")[0]}); the state log is used alone.` });
    } catch (e) {
      if (!isWorkbenchError(e)) throw e;
      warn({ relPath: cfgRel, code: refusalOf(e) ?? "unreadable", message: `${e.message} The state log is used alone.` });
    }
  }
  const records = lines.map((l) => l.value);
  const configLine = records.find((r) => r.type === "config");
  const iterations = records.filter((r) => r.type === "iteration");
  const events = records.filter((r) => r.type === "event");
  const graph = [...events].reverse().find((e) => e.event === "graph_convergence");
  const stop = [...events].reverse().find((e) => (e.event === "loop_stopped" || e.event === "synthesis_complete") && typeof e.stopReason === "string");
  const executors = runExecutors({ config, events, seatFiles: seatFileLabels(pfs, packet.relPath) });
  const last = records[records.length - 1];
  const lastIteration = iterations[iterations.length - 1];
  const synth = events.some((e) => e.event === "synthesis_complete");
  return {
    ...packet,
    scope: str(config?.scope) ?? str(configLine?.scope) ?? str(config?.topic) ?? str(configLine?.topic),
    status: synth ? "complete" : (str(config?.status) ?? (iterations.length ? "iterating" : "initialized")),
    iterations: iterations.length,
    decision: str(graph?.decision),
    stopReason: str(stop?.stopReason),
    findings: typeof lastIteration?.findingsCount === "number" ? lastIteration.findingsCount : null,
    lastEventAt: str(last?.timestamp),
    corruptLines: warnings.length,
    executors: executors.map((e) => e.label),
  };
}
