/**
 * The server's run views live in a process of their own (`workbench run-views`, started on the
 * first question and kept while the server runs): computing a large run's view takes seconds of
 * CPU, which on the server's thread would stall every other request, and a hostile packet that
 * exhausts memory ends that process, not the server. Questions and answers cross an IPC channel
 * (see requests.ts); the views stay cached over there, so only windows travel.
 */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { type ErrorCode, WorkbenchError } from "../../core/errors";
import { appRoot } from "../../db/app-root";
import type { RequestOf, ViewAnswers, ViewMessage, ViewOp } from "./requests";

const CODES: readonly ErrorCode[] = ["INVALID_INPUT", "NOT_FOUND", "CONFLICT", "UNSAFE_PATH", "UNREADABLE", "TOO_LARGE", "GATE_REFUSED", "NOT_EMITTED", "UNAUTHENTICATED", "FORBIDDEN", "INTERNAL"];

interface Pending {
  resolve: (answer: unknown) => void;
  reject: (e: Error) => void;
}

export class ViewProcess {
  private child: ChildProcess | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  /** The process's pid while it runs (tests end it to show a crash costs one answer, not the server). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  ask<O extends ViewOp>(request: RequestOf<O>): Promise<ViewAnswers[O]> {
    const child = this.child ?? this.start();
    const id = this.nextId++;
    return new Promise<ViewAnswers[O]>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (a: unknown) => void, reject });
      this.hold(true);
      child.send({ id, request } satisfies ViewMessage, (e) => {
        if (e) this.settle(id, (p) => p.reject(new WorkbenchError("INTERNAL", "The run views process could not be reached; try again.", e)));
      });
    });
  }

  private start(): ChildProcess {
    const root = appRoot();
    const child = spawn(process.execPath, [path.join(root, "bin", "workbench.cjs"), "run-views"], {
      cwd: root,
      env: { ...process.env, WORKBENCH_APP_ROOT: root, WORKBENCH_RUN_VIEWS: "inline" },
      // The channel closes when this process ends, however it ends: the view process then ends too.
      stdio: ["ignore", "inherit", "inherit", "ipc"],
      // Answers are plain data, some large: structured clone, not JSON text.
      serialization: "advanced",
    });
    this.child = child;
    child.on("message", (m: ViewMessage) => {
      if (!("ok" in m)) return;
      this.settle(m.id, (p) => (m.ok ? p.resolve(m.answer) : p.reject(new WorkbenchError(CODES.includes(m.error.code as ErrorCode) ? (m.error.code as ErrorCode) : "INTERNAL", m.error.message))));
    });
    const ended = (why: string) => {
      if (this.child !== child) return;
      this.child = null;
      // Every question in flight fails; the next one starts a new process.
      for (const id of [...this.pending.keys()]) this.settle(id, (p) => p.reject(new WorkbenchError("INTERNAL", "Computing this run's view ended its process (it may be too large to compute); try again.", why)));
    };
    child.once("exit", (code, signal) => ended(signal ? `signal ${signal}` : `exit code ${code}`));
    child.once("error", (e) => ended(e.message));
    return child;
  }

  private settle(id: number, fn: (p: Pending) => void): void {
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    fn(p);
    if (this.pending.size === 0) this.hold(false);
  }

  /** An idle view process keeps no one waiting: a CLI or a test ends when its own work does. */
  private hold(on: boolean): void {
    const child = this.child;
    if (!child) return;
    if (on) {
      child.ref();
      child.channel?.ref();
    } else {
      child.unref();
      child.channel?.unref();
    }
  }

  /** Ends the process (its cached views with it). */
  stop(): void {
    this.child?.kill();
  }
}
