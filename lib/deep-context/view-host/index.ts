/**
 * Where run views are computed: in the view process (process-host.ts), except inside that
 * process itself, and where `WORKBENCH_RUN_VIEWS=inline` asks for this process.
 */
import { readEnv } from "../../core/env";
import { WorkbenchError } from "../../core/errors";
import { answerLocally } from "./answer";
import { ViewProcess } from "./process-host";
import type { RequestOf, ViewAnswers, ViewOp } from "./requests";

// One process per server: Next bundles each route separately, so the handle lives on globalThis.
const shared = globalThis as { __workbenchViewProcess?: ViewProcess };

export function viewProcess(): ViewProcess {
  return (shared.__workbenchViewProcess ??= new ViewProcess());
}

export function askRunViews<O extends ViewOp>(request: RequestOf<O>): Promise<ViewAnswers[O]> {
  if (readEnv("WORKBENCH_RUN_VIEWS") === "inline") return answerLocally(request);
  // The process handle may have been made by another route's bundle, whose WorkbenchError is
  // another class: the error is made again here, so the caller's `instanceof` holds.
  return viewProcess()
    .ask(request)
    .catch((e: unknown) => {
      const failed = e as Partial<WorkbenchError>;
      throw failed?.name === "WorkbenchError" && typeof failed.code === "string" ? new WorkbenchError(failed.code, String(failed.message), failed.details) : e;
    });
}

export { answerLocally } from "./answer";
export { serveRunViews } from "./child";
export type { ViewAnswers, ViewOp, ViewRequest } from "./requests";
