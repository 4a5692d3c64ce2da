/**
 * The packet writes tests/db/kill-packet.test.ts kills: each action a sequence of service calls
 * as the API routes make them (a save is POST …/revisions, a comment POST …/comments, a review
 * decision POST …/review), each acknowledged on its own. The writer process
 * (tests/helpers/packet-writer.ts) runs a whole sequence; the test runs its first k writes in its
 * own process to know every state a kill may leave.
 */
import { commentOnPacket, packetComments, reviewPacket } from "../../lib/collab/service";
import { getPacket, saveProjectPacket } from "../../lib/packets/service";

export type PacketAction = "save" | "review";

type Write = (projectId: string, packetId: string) => Promise<unknown>;

/** An editor saving four times over an approved revision: each save a new Summary line, which the title follows. */
const save = (pass: number): Write =>
  async function save(projectId, packetId) {
    const head = await getPacket(projectId, packetId);
    return saveProjectPacket(projectId, packetId, {
      markdown: head.markdown.replace(/^\*\*Summary:\*\* .*$/m, `**Summary:** Truncation keeps whole words (pass ${pass})`),
      baseNumber: head.headNumber,
      author: "Ada",
      note: `pass ${pass}`,
    });
  };

const decide = (action: "approve" | "request_changes" | "request_review", actor: string, note: string | null): Write =>
  async function decide(projectId, packetId) {
    const head = await getPacket(projectId, packetId);
    return reviewPacket(projectId, packetId, { action, revision: action === "request_review" ? null : head.headNumber, actor, note });
  };

const QUESTION = "Which queue is told?";

/** A review round on a packet in review: a question, changes requested, back in review, the answer, the approval. */
export const PACKET_WRITES: Record<PacketAction, Write[]> = {
  save: [save(1), save(2), save(3), save(4)],
  review: [
    (projectId, packetId) => commentOnPacket(projectId, packetId, { body: QUESTION, author: "Grace", section: "Desired behavior" }),
    decide("request_changes", "Grace", "answer the question first"),
    decide("request_review", "Ada", null),
    async (projectId, packetId) => {
      const thread = (await packetComments(projectId, packetId)).find((c) => c.body === QUESTION)!.threadId;
      return commentOnPacket(projectId, packetId, { threadId: thread, body: "The export queue, after the job row is written.", author: "Ada" });
    },
    decide("approve", "Grace", "ready to hand off"),
  ],
};
