/** What the UI sees of a packet's review: comments, review events and snapshots (stored by lib/db, the layer below). */
export type { CommentDto, ReviewEventDto, SnapshotDto } from "../db/repositories/collab";
