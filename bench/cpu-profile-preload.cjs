// Preloaded into the server's processes by serve-load.bench.ts (BENCH_CPU_PROF=<dir>) through
// NODE_OPTIONS=--require, since Node refuses --cpu-prof there: profiles the whole process and
// writes <dir>/<pid>.cpuprofile when it exits (the in-process inspector answers synchronously).
const inspector = require("node:inspector");
const fs = require("node:fs");
const path = require("node:path");

const dir = process.env.BENCH_CPU_PROF_DIR;
if (dir) {
  const session = new inspector.Session();
  session.connect();
  session.post("Profiler.enable");
  session.post("Profiler.setSamplingInterval", { interval: 500 });
  session.post("Profiler.start");
  let written = false;
  const write = () => {
    if (written) return;
    written = true;
    session.post("Profiler.stop", (err, res) => {
      if (!err) fs.writeFileSync(path.join(dir, `${process.pid}.cpuprofile`), JSON.stringify(res.profile));
    });
  };
  process.on("exit", write);
  // Signals end a process without "exit" unless someone handles them; Next does, the CLI too.
  process.prependListener("SIGTERM", write);
}
