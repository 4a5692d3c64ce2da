import { NextResponse } from "next/server";
import { z } from "zod";
import { SIGNAL_VARIANTS } from "@/lib/deep-context/convergence";
import { runWindowQuerySchema } from "@/lib/deep-context/views";
import { runForProject } from "@/lib/deep-context/service";
import { projectRoute, searchParams } from "../../../../_lib/respond";

export const dynamic = "force-dynamic";
const params = z.object({ id: z.string().min(1).max(64).describe("project id"), runId: z.string().min(1).max(64).describe("run id") });
const query = z
  .object({ variant: z.enum(SIGNAL_VARIANTS as ["documented", "stored"]).default("documented").describe("signal formulas: documented or stored") })
  .extend(runWindowQuerySchema.shape);

/**
 * The run: convergence payload, host-loop replay, registry metrics, agreement, facets and
 * the first window of findings (the rest: `…/findings`). Events, iterations and the replay come
 * one window at a time (`events=<offset>`, `iterations=<offset>`; absent: the newest), with
 * their totals, so a run with a huge state log still answers in a small body.
 */
export const GET = projectRoute<{ id: string; runId: string }>("viewer", async (req, p) => {
  const { id, runId } = params.parse(p);
  const { variant, events, iterations } = query.parse(searchParams(req));
  return NextResponse.json(await runForProject(id, runId, variant, { events, iterations }));
});
