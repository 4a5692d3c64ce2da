/**
 * Who the project's `.coord/` records name as having decided or approved something: the actors a
 * brief's or primer's decision lines may name besides `human:<id>`. Pure (a type import only),
 * so the draft editor's checks can run it in the browser too.
 */
import type { CoordSnapshot } from "./coord-types";

/** Everyone the project's records name as having decided or approved something. */
export function recordedActors(snapshot: Pick<CoordSnapshot, "memory" | "checkpoints" | "proposals">): string[] {
  const actors = new Set<string>();
  for (const e of snapshot.memory?.events ?? []) {
    actors.add(e.actor);
    actors.add(e.approval.actor);
  }
  for (const c of snapshot.checkpoints) for (const d of (c.version === 1 ? c.checkpoint : c.checkpoint.task).decisions) actors.add(d.actor);
  for (const p of snapshot.proposals) if (p.proposal.decision) actors.add(p.proposal.decision.actor);
  return [...actors].filter((a) => a.trim() !== "").sort();
}
