/**
 * One action's packet writes (tests/helpers/packet-writes.ts) in a process of its own, for
 * tests/db/kill-packet.test.ts to kill -9 at any step, on the database DATABASE_URL names.
 * Usage: node --require tests/helpers/kill-switch.cjs <this file, bundled by bundleWriter of
 *   tests/helpers/kill-points.ts> <warm | save | review> <projectId> <packetId>
 * `warm` connects, loads what the writes use and reads the packet, and writes nothing: its step
 * count is where the writes start.
 */
import fs from "node:fs";
import { countTokens } from "../../lib/core/tokens";
import { getPacket } from "../../lib/packets/service";
import { PACKET_WRITES, type PacketAction } from "./packet-writes";

// No top-level await: the test bundles this file as CommonJS, which starts faster.
async function main(): Promise<void> {
  const [action, projectId, packetId] = process.argv.slice(2) as [PacketAction | "warm", string, string];
  // As in a running server: the tokenizer the checks use is loaded, the packet exists.
  countTokens("warm");
  await getPacket(projectId, packetId);
  if (action === "warm") return;
  const writes = PACKET_WRITES[action];
  if (!writes) throw new Error(`packet-writer: unknown action ${action}`);
  for (const [i, write] of writes.entries()) {
    await write(projectId, packetId);
    // The acknowledgement, as the route's response would be: a write step of its own, so a kill
    // point also falls after a write's last statement (the write is done but not acknowledged).
    fs.writeSync(1, `write ${i + 1} of ${writes.length} done\n`);
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
