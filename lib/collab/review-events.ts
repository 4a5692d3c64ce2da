/**
 * Review status changes as in-process events, so a waiter in the same process (an MCP
 * `get_handoff` with waitSeconds in `workbench serve`, where the dashboard also approves)
 * wakes the moment the decision is recorded. Another process's change is not seen here: waiters
 * also re-read the packet row now and then (see lib/mcp/tools/get-handoff.ts).
 */
import { EventEmitter } from "node:events";

export interface ReviewStatusChange {
  projectId: string;
  packetId: string;
  from: string;
  to: string;
  revision: number;
}

const emitter = new EventEmitter();
// Every waiting agent is a listener; the default warning at 11 would be noise, not a leak.
emitter.setMaxListeners(0);

export function publishReviewChange(change: ReviewStatusChange): void {
  emitter.emit("change", change);
}

/** Calls `fn` on every status change of the packet until the returned function is called. */
export function onReviewChange(packetId: string, fn: (change: ReviewStatusChange) => void): () => void {
  const listener = (c: ReviewStatusChange) => {
    if (c.packetId === packetId) fn(c);
  };
  emitter.on("change", listener);
  return () => emitter.off("change", listener);
}

/** Listeners waiting on review changes now (for tests and diagnostics). */
export function reviewWaiterCount(): number {
  return emitter.listenerCount("change");
}
