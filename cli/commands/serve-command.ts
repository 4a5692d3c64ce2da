import fs from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { WorkbenchError } from "../../lib/core/errors";
import { stderr } from "../output";

export function registerServe(program: Command, setCode: (c: number) => void): void {
  program
    .command("serve")
    .description("Serve the dashboard (run `npm run build` once first).")
    // Defaults come from the environment inside the action: its module (zod) is not for every command's start.
    .option("--port <n>", "port to listen on (default: PORT, else 3000)")
    .option("--host <host>", "interface to listen on (local mode: loopback only; default: HOST, else 127.0.0.1)")
    .option("--sample", "create and index the bundled sample project when no project exists yet")
    .option("--collab-port <n>", "port of the co-editing WebSocket server (default: WORKBENCH_COLLAB_PORT, else --port + 1)")
    .action(async (given: { port?: string; host?: string; sample?: boolean; collabPort?: string }) => {
      // Imported here, not at the top: the auth configuration's schema (zod) is not for every command's start.
      const { isLoopbackHost, readAuthConfig } = await import("../../lib/auth/config");
      const { readEnv } = await import("../../lib/core/env");
      const envCollabPort = readEnv("WORKBENCH_COLLAB_PORT");
      const opts = {
        ...given,
        port: given.port ?? String(readEnv("PORT")),
        host: given.host ?? readEnv("HOST") ?? "127.0.0.1",
        collabPort: given.collabPort ?? (envCollabPort === undefined ? undefined : String(envCollabPort)),
      };
      const { appRoot } = await import("../../lib/db/app-root");
      const { sampleProjectDir } = await import("../../lib/db/database-url");
      const { spawn } = await import("node:child_process");
      // Refused before anything starts: a team server without a secret, or a local one on the network.
      const auth = readAuthConfig();
      if (auth.mode === "local" && !isLoopbackHost(opts.host)) {
        throw new WorkbenchError(
          "INVALID_INPUT",
          `Local mode has no sign-in, so it listens on loopback only; --host ${opts.host} would let anyone on the network in. Set WORKBENCH_MODE=team and WORKBENCH_AUTH_SECRET to serve a team.`,
        );
      }
      const root = appRoot();
      // `next start` serves the build in NEXT_DIST_DIR (next.config.js), so that is the one that must exist.
      if (!fs.existsSync(path.join(root, readEnv("NEXT_DIST_DIR") ?? ".next", "BUILD_ID"))) {
        throw new WorkbenchError("NOT_FOUND", "No production build found: run `npm run build` first (npm start does it for you).");
      }
      const port = Number(opts.port);
      if (!Number.isInteger(port) || port < 1 || port > 65535) throw new WorkbenchError("INVALID_INPUT", `--port must be 1-65535, not "${opts.port}".`);
      const collabPort = opts.collabPort === undefined ? port + 1 : Number(opts.collabPort);
      if (!Number.isInteger(collabPort) || collabPort < 1 || collabPort > 65535 || collabPort === port) {
        throw new WorkbenchError("INVALID_INPUT", `--collab-port must be 1-65535 and differ from --port, not "${opts.collabPort}".`);
      }
      const { listProjects } = await import("../../lib/db/repositories/projects");
      const { failStaleJobs } = await import("../../lib/db/repositories/jobs");
      const { closeDb } = await import("../../lib/db/client");
      const { ensureIndexed } = await import("./shared");
      await failStaleJobs();
      if (opts.sample && (await listProjects()).length === 0) {
        const target = sampleProjectDir();
        const { createSampleProject } = (await import(path.join(root, "scripts", "sample-project.mjs"))) as {
          createSampleProject: (dir: string) => Promise<unknown>;
        };
        await createSampleProject(target);
        // Sample-only: its approver key is pinned so a newcomer can approve a proposal (lib/memory/sample-key.ts).
        (await import("../../lib/memory/sample-key")).pinSampleKey(target);
        stderr.line(`indexing the sample project at ${target}`);
        await ensureIndexed(target);
      }
      // Remote projects are fetched from this process too, so a slow remote never holds up a request.
      const { startFetchSchedulerFromEnv } = await import("../../lib/projects/fetch-scheduler");
      const fetcher = startFetchSchedulerFromEnv();
      // The co-editing server lives in this process (it stores documents through the same
      // database layer); the dashboard runs in the Next child.
      if (auth.mode === "team") {
        const { countAccounts } = await import("../../lib/db/repositories/accounts");
        if ((await countAccounts()) === 0) {
          const { setupCode } = await import("../../lib/auth/setup-code");
          const base = auth.publicUrl ?? `http://${opts.host}:${opts.port}`;
          stderr.line(`No accounts yet: create the first (administrator) account at ${base.replace(/\/$/, "")}/sign-in?setup=${setupCode(auth.secret)}`);
        }
      }
      const { startCollabServer } = await import("../../lib/collab/server");
      const collab = await startCollabServer({ port: collabPort, host: opts.host });
      stderr.line(`Context Workbench on http://${opts.host}:${port} (co-editing on ws://${opts.host}:${collabPort})`);
      // A keep-alive longer than clients' (Node's fetch keeps sockets 5 s) avoids resets
      // when a client reuses a socket the server has just closed.
      const child = spawn(path.join(root, "node_modules", ".bin", "next"), ["start", "-p", String(port), "-H", opts.host, "--keepAliveTimeout", "65000"], {
        cwd: root,
        stdio: "inherit",
        env: { ...process.env, WORKBENCH_APP_ROOT: root, WORKBENCH_COLLAB_PORT: String(collabPort), WORKBENCH_COLLAB_HOST: opts.host },
      });
      // Open documents are stored before exit, whatever their debounce.
      let collabStopped: Promise<void> | null = null;
      const stopCollab = () => (collabStopped ??= collab.stop().catch((e: unknown) => stderr.line(`co-editing server: ${e instanceof Error ? e.message : String(e)}`)));
      const stop = () => {
        child.kill("SIGTERM");
        void stopCollab();
      };
      process.on("SIGINT", stop);
      process.on("SIGTERM", stop);
      const code = await new Promise<number>((resolve) => child.on("exit", (c) => resolve(c ?? 0)));
      await stopCollab();
      await fetcher?.stop();
      await closeDb();
      setCode(code);
    });
}
