import type { Command } from "commander";
import { WorkbenchError } from "../../lib/core/errors";
import { stderr, writeJsonText } from "../output";

/**
 * `workbench api <method> <path>`: calls a (team) Workbench's HTTP API with a personal access token,
 * for scripts and agents on other machines. WORKBENCH_URL names the server, WORKBENCH_TOKEN the token.
 */
export function registerApi(program: Command, setCode: (c: number) => void): void {
  program
    .command("api <method> <path>")
    .description("Call a Workbench's HTTP API as WORKBENCH_TOKEN at WORKBENCH_URL; prints the response body.")
    .option("--data <json>", "request body (JSON)")
    .action(async (method: string, apiPath: string, opts: { data?: string }) => {
      const { readEnv } = await import("../../lib/core/env");
      const base = readEnv("WORKBENCH_URL");
      const token = readEnv("WORKBENCH_TOKEN");
      if (!base) throw new WorkbenchError("INVALID_INPUT", "Set WORKBENCH_URL to the Workbench's address, e.g. https://workbench.example.com.");
      const verb = method.toUpperCase();
      if (!["GET", "POST", "PATCH", "PUT", "DELETE"].includes(verb)) throw new WorkbenchError("INVALID_INPUT", `Unknown method "${method}".`);
      if (!apiPath.startsWith("/api/")) throw new WorkbenchError("INVALID_INPUT", `The path must start with /api/, not "${apiPath}".`);
      if (opts.data !== undefined) {
        try {
          JSON.parse(opts.data);
        } catch {
          throw new WorkbenchError("INVALID_INPUT", "--data must be JSON.");
        }
      }
      const res = await fetch(new URL(apiPath, base), {
        method: verb,
        headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(opts.data !== undefined ? { "content-type": "application/json" } : {}) },
        body: opts.data,
      }).catch((e: unknown) => {
        throw new WorkbenchError("UNREADABLE", `Cannot reach ${base}: ${e instanceof Error ? e.message : String(e)}`);
      });
      writeJsonText(await res.text());
      if (!process.stdout.isTTY) process.stdout.write("\n");
      if (!res.ok) stderr.line(`HTTP ${res.status}`);
      setCode(res.ok ? 0 : 1);
    });
}
