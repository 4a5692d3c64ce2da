/**
 * The view process's side (`workbench run-views`): answers each question the server sends
 * (answer.ts) and keeps the computed views between them.
 */
import { toWorkbenchError } from "../../core/errors";
import { answerLocally } from "./answer";
import type { ViewMessage } from "./requests";

export function serveRunViews(): void {
  process.on("message", (m: ViewMessage) => {
    if (!("request" in m)) return;
    answerLocally(m.request).then(
      (answer) => process.send?.({ id: m.id, ok: true, answer } satisfies ViewMessage),
      (e: unknown) => {
        const error = toWorkbenchError(e);
        if (error.code === "INTERNAL") console.error("[workbench] run view", m.request.op, e);
        process.send?.({ id: m.id, ok: false, error: { code: error.code, message: error.message } } satisfies ViewMessage);
      },
    );
  });
}
