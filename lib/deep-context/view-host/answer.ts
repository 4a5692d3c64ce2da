/**
 * Answers a view question where the views live: computes (or reuses) the run view and cuts
 * the window asked for. In the server this runs in the view process (process-host.ts).
 */
import { WorkbenchError } from "../../core/errors";
import { ProjectFs } from "../../core/project-fs";
import { compareViews, compareWindow, iterationsOf } from "../compare";
import { evaluatePacket } from "../convergence";
import { cachedRunView, cachedRunViewAndVersion, pageViewOf, queryFindings } from "../views";
import type { RequestOf, ViewAnswers, ViewOp, ViewRequest } from "./requests";

export async function answerLocally<O extends ViewOp>(request: RequestOf<O>): Promise<ViewAnswers[O]> {
  return (await answer(request)) as ViewAnswers[O];
}

async function answer(r: ViewRequest): Promise<ViewAnswers[ViewOp]> {
  switch (r.op) {
    case "page": {
      // The version comes from the walk that keys the view, before it is computed: a change
      // while it is computed makes the versions differ.
      const { view, version } = await cachedRunViewAndVersion(r.rootPath, r.relPath, r.variant);
      return { view: pageViewOf(await view, r.windows), version };
    }
    case "findings":
      return queryFindings((await cachedRunView(r.rootPath, r.relPath, "documented")).findings, r.query);
    case "drawing":
      return (await cachedRunView(r.rootPath, r.relPath, "documented")).drawing;
    case "warm":
      // Newest first and one at a time: the first visit waits for at most one of them.
      for (const relPath of r.relPaths) await cachedRunView(r.rootPath, relPath, "documented");
      return null;
    case "iterations":
      return iterationsOf(await cachedRunView(r.rootPath, r.relPath, "documented"));
    case "compare": {
      const view = await cachedRunView(r.rootPath, r.relPath, "documented");
      let baseView;
      if ("relPath" in r.baseline) baseView = await cachedRunView(r.rootPath, r.baseline.relPath, "documented");
      else {
        const iterations = iterationsOf(view);
        const n = r.baseline.iteration;
        if (!iterations.includes(n)) {
          const range = iterations.length ? `it has iterations ${iterations[0]}–${iterations[iterations.length - 1]}` : "it has no iterations yet";
          throw new WorkbenchError("NOT_FOUND", `This run has no iteration ${n}: ${range}.`);
        }
        baseView = await cachedRunView(r.rootPath, r.relPath, "documented", n);
      }
      return compareWindow(compareViews(baseView, view), r.req);
    }
    case "convergence": {
      const fs = r.rootPath === null ? undefined : await ProjectFs.open(r.rootPath);
      const res = await evaluatePacket(r.folder, { variant: r.variant, ...(fs ? { fs } : {}) });
      return { ...res.payload, graph_origin: res.graphSource.origin, replay: res.replay, warnings: res.warnings };
    }
  }
}
