/** What the command palette jumps to (read by lib/db, the layer below). */
export type { JumpTargets } from "../db/repositories/palette";
