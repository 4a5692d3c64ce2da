/**
 * The co-editing server in a process of its own, for tests/db/kill-coedit.test.ts to kill -9 at
 * any of its write steps (tests/helpers/kill-switch.cjs: WORKBENCH_KILL_AT), or in the one gap a
 * write step cannot reach: after a store's write, before its "stored" notice goes out
 * (WORKBENCH_KILL_BEFORE_NOTICE=n: SIGKILLed just before the n-th notice that announces new
 * content, so the database holds keystrokes nobody was told of). Prints "listening <port>" once
 * it accepts connections, and exits (without storing anything more) when "stop" arrives on
 * stdin, so a run that counts its steps ends normally.
 * Usage: node --require tests/helpers/kill-switch.cjs <bundle of this file> <port> <debounce ms> <max debounce ms>
 */
import { Connection } from "@hocuspocus/server";
import * as Y from "yjs";
import { startCollabServer } from "../../lib/collab/server";
import { parseStoredMessage } from "../../lib/collab/stored-message";

const killBeforeNotice = Number(process.env.WORKBENCH_KILL_BEFORE_NOTICE ?? 0);
if (killBeforeNotice > 0) {
  // A store can hold nothing new (typing stalled between two debounced stores); a kill before
  // its notice would leave the database at exactly what was acknowledged, so it does not count.
  let notices = 0;
  let last: Y.Snapshot | null = null;
  const send = Connection.prototype.sendStateless;
  Connection.prototype.sendStateless = function (this: Connection, payload: string) {
    const notice = parseStoredMessage(payload);
    if (notice && !(last && Y.equalSnapshots(last, notice.snapshot))) {
      last = notice.snapshot;
      if (++notices >= killBeforeNotice) process.kill(process.pid, "SIGKILL");
    }
    return send.call(this, payload);
  };
}

// No top-level await: the test bundles this file as CommonJS, which starts faster.
async function main(): Promise<void> {
  const port = Number(process.argv[2]);
  await startCollabServer({ port, host: "127.0.0.1", debounce: Number(process.argv[3]), maxDebounce: Number(process.argv[4]) });
  process.stdout.write(`listening ${port}\n`);
  process.stdin.on("data", (d: Buffer) => {
    if (d.toString().includes("stop")) process.exit(0);
  });
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
