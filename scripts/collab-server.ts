/**
 * Runs the co-editing server alone, for tests and benchmarks that kill or measure it: prints "listening <port>" once
 * it accepts connections. Usage: node --import tsx scripts/collab-server.ts <port>  (COLLAB_DEBOUNCE ms, default 200)
 */
import { startCollabServer } from "../lib/collab/server";
import { readEnv } from "../lib/core/env";

const port = Number(process.argv[2]);
const debounce = readEnv("COLLAB_DEBOUNCE");
await startCollabServer({ port, host: "127.0.0.1", debounce, maxDebounce: debounce * 5 });
process.stdout.write(`listening ${port}\n`);
