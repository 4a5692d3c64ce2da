/**
 * What the server asks of the run views, and what each question answers: small windows of a
 * computed view, never the view itself (a large run's view is tens of MB, and it is computed
 * and kept in a process of its own: see process-host.ts).
 */
import type { ConvergencePayload, GraphSource, ReplayResult, SignalVariant } from "../convergence";
import type { CompareRequest, CompareWindow } from "../compare";
import type { FindingsPage, FindingsQuery, RunPageView, RunView, RunWindowQuery } from "../views";

/** One run packet of a project: its root and the run's state-log path in it. */
interface RunAt {
  rootPath: string;
  relPath: string;
}

export type ViewRequest =
  | ({ op: "page"; variant: SignalVariant; windows: RunWindowQuery } & RunAt)
  | ({ op: "findings"; query: FindingsQuery } & RunAt)
  | ({ op: "drawing" } & RunAt)
  | { op: "warm"; rootPath: string; relPaths: string[] }
  | ({ op: "iterations" } & RunAt)
  | ({ op: "compare"; baseline: { relPath: string } | { iteration: number }; req: CompareRequest } & RunAt)
  /** `workbench converge --json`'s object for a packet folder: read through the project's file layer when `rootPath` is given. */
  | { op: "convergence"; folder: string; rootPath: string | null; variant: SignalVariant };

export interface ViewAnswers {
  /** The page's windows, and the packet's version from the walk that keyed the view. */
  page: { view: RunPageView; version: string };
  findings: FindingsPage;
  drawing: RunView["drawing"];
  warm: null;
  iterations: number[];
  compare: CompareWindow;
  convergence: ConvergenceAnswer;
}

/** The same object, key for key, as cli/commands/converge-command.ts prints. */
export type ConvergenceAnswer = ConvergencePayload & { graph_origin: GraphSource["origin"]; replay: ReplayResult | null; warnings: string[] };

export type ViewOp = ViewRequest["op"];
export type RequestOf<O extends ViewOp> = Extract<ViewRequest, { op: O }>;

/** How a question travels to the view process and back. */
export type ViewMessage = { id: number; request: ViewRequest } | { id: number; ok: true; answer: ViewAnswers[ViewOp] } | { id: number; ok: false; error: { code: string; message: string } };
