import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { WorkbenchError } from "../../lib/core/errors";
import { appRoot } from "../../lib/db/app-root";
import { dataDir } from "../../lib/db/database-url";

export function registerServe(program: Command, setCode: (c: number) => void): void {
  program
    .command("serve")
    .description("Serve the dashboard (run `npm run build` once first).")
    .option("--port <n>", "port to listen on", process.env.PORT ?? "3000")
    .option("--host <host>", "interface to listen on (local mode: loopback only)", process.env.HOST ?? "127.0.0.1")
    .option("--sample", "create and index the bundled sample project when no project exists yet")
    .action(async (opts: { port: string; host: string; sample?: boolean }) => {
      const root = appRoot();
      if (!fs.existsSync(path.join(root, ".next", "BUILD_ID"))) {
        throw new WorkbenchError("NOT_FOUND", "No production build found: run `npm run build` first (npm start does it for you).");
      }
      const port = Number(opts.port);
      if (!Number.isInteger(port) || port < 1 || port > 65535) throw new WorkbenchError("INVALID_INPUT", `--port must be 1-65535, not "${opts.port}".`);
      const { listProjects } = await import("../../lib/db/repositories/projects");
      const { failStaleJobs } = await import("../../lib/db/repositories/jobs");
      const { closeDb } = await import("../../lib/db/client");
      const { ensureIndexed } = await import("./shared");
      await failStaleJobs();
      if (opts.sample && (await listProjects()).length === 0) {
        const target = path.join(dataDir(), "sample-project");
        const { createSampleProject } = (await import(path.join(root, "scripts", "sample-project.mjs"))) as {
          createSampleProject: (dir: string) => Promise<void>;
        };
        await createSampleProject(target);
        process.stderr.write(`indexing the sample project at ${target}\n`);
        await ensureIndexed(target);
      }
      await closeDb();
      process.stderr.write(`Context Workbench on http://${opts.host}:${port}\n`);
      // A keep-alive longer than clients' (Node's fetch keeps sockets 5 s) avoids resets
      // when a client reuses a socket the server has just closed.
      const child = spawn(path.join(root, "node_modules", ".bin", "next"), ["start", "-p", String(port), "-H", opts.host, "--keepAliveTimeout", "65000"], {
        cwd: root,
        stdio: "inherit",
        env: { ...process.env, WORKBENCH_APP_ROOT: root },
      });
      const stop = () => child.kill("SIGTERM");
      process.on("SIGINT", stop);
      process.on("SIGTERM", stop);
      const code = await new Promise<number>((resolve) => child.on("exit", (c) => resolve(c ?? 0)));
      setCode(code);
    });
}
