// Preloaded (--require) into a CLI process by index.bench.ts: writes the process's peak
// resident set (maxRSS, KiB) to BENCH_MAX_RSS_FILE when it exits, since Node reports a child's
// resource use only to the child itself.
const fs = require("node:fs");

const file = process.env.BENCH_MAX_RSS_FILE;
if (file) process.on("exit", () => fs.writeFileSync(file, String(process.resourceUsage().maxRSS)));
