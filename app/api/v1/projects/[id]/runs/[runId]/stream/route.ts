import { WorkbenchError } from "@/lib/core/errors";
import { ProjectFs } from "@/lib/core/project-fs";
import { getProject } from "@/lib/projects/service";
import { getRun } from "@/lib/deep-context/service";
import { packetVersion } from "@/lib/deep-context/run-cache";
import { watchPacket } from "@/lib/deep-context/views";
import { runRoutes } from "@/lib/deep-context/schemas";
import { handle } from "../../../../../_lib/handler";

export const dynamic = "force-dynamic";

/** Server-sent events: `ready` (with the packet's version) once watching, then `change` whenever a file of the run packet changes. */
export const GET = handle(runRoutes.stream, async ({ req, params: { id, runId } }) => {
  const project = await getProject(id);
  const run = await getRun(id, runId);
  const pfs = await ProjectFs.open(project.rootPath);
  // The real folder, inside the project (a packet folder that links out is not watched).
  const dir = pfs.realDirSync(run.relPath);
  if (dir === null) throw new WorkbenchError("NOT_FOUND", `No run packet at ${run.relPath}.`);
  const encoder = new TextEncoder();
  let stop: (() => Promise<void>) | null = null;
  let heartbeat: ReturnType<typeof setInterval> | null = null;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (event: string, data: unknown) => {
        try {
          controller.enqueue(encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`));
        } catch {
          /* the client went away */
        }
      };
      // `ready` once the watcher is active, with the packet's version then: a page rendered
      // from another version (a change before the stream connected, or while it was down)
      // refreshes, and every later change is announced.
      stop = watchPacket(dir, () => send("change", { at: new Date().toISOString() }), {
        onReady: () => send("ready", { at: new Date().toISOString(), version: packetVersion(pfs, run.relPath) }),
      });
      heartbeat = setInterval(() => send("ping", {}), 15_000);
      req.signal.addEventListener("abort", () => {
        if (heartbeat) clearInterval(heartbeat);
        void stop?.();
        try {
          controller.close();
        } catch {
          /* already closed */
        }
      });
    },
    cancel() {
      if (heartbeat) clearInterval(heartbeat);
      void stop?.();
    },
  });
  return new Response(stream, { headers: { "content-type": "text/event-stream", "cache-control": "no-cache, no-transform", connection: "keep-alive" } });
});
