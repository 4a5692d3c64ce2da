import { NextResponse } from "next/server";
import { z } from "zod";
import { deleteProject, getProject } from "@/lib/db/repositories/projects";
import { removeRemoteCheckout } from "@/lib/projects/remote-projects";
import { projectRoute } from "../../_lib/respond";

export const dynamic = "force-dynamic";
const params = z.object({ id: z.string().min(1).max(64).describe("project id") });

export const GET = projectRoute<{ id: string }>("viewer", async (_req, p) => NextResponse.json({ project: await getProject(params.parse(p).id) }));

/** Removes the indexed data; the repository on disk is never written (a remote's checkout is ours and goes too). */
export const DELETE = projectRoute<{ id: string }>("admin", async (_req, p) => {
  const { id } = params.parse(p);
  const project = await getProject(id);
  await deleteProject(id);
  removeRemoteCheckout(project);
  return new NextResponse(null, { status: 204 });
});
