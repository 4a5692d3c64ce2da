import { spawn } from "node:child_process";
import path from "node:path";
import { REPO_ROOT } from "./project-builder";

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `node bin/workbench.cjs ...`, arguments passed without a shell, output collected; `input` is piped to stdin. */
export function runWorkbench(args: string[], opts: { env: NodeJS.ProcessEnv; cwd?: string; input?: string }): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(REPO_ROOT, "bin", "workbench.cjs"), ...args], { cwd: opts.cwd ?? REPO_ROOT, env: opts.env, stdio: [opts.input === undefined ? "ignore" : "pipe", "pipe", "pipe"] });
    if (opts.input !== undefined) child.stdin!.end(opts.input);
    let stdout = "";
    let stderr = "";
    child.stdout!.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr!.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}
