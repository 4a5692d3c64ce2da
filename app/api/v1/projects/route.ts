import { NextResponse } from "next/server";
import { requireInstanceAdmin, visibleProjectIds } from "@/lib/auth/access";
import { listProjects } from "@/lib/db/repositories/projects";
import { warmRunViews } from "@/lib/deep-context/service";
import { startIndexJob } from "@/lib/indexer/jobs";
import { addProject, addProjectInput } from "@/lib/projects/add-project";
import { readJson, route } from "../_lib/respond";

export const dynamic = "force-dynamic";

export const GET = route(async (_req, _p, ctx) => NextResponse.json({ projects: await listProjects(await visibleProjectIds(ctx.principal)) }));

/**
 * Registers a folder (or clones a remote) and starts indexing it; poll the returned job for
 * progress. Team mode: instance administrators only, since a path reads the server's disk.
 */
export const POST = route(async (req, _p, ctx) => {
  requireInstanceAdmin(ctx.principal);
  const input = await readJson(req, addProjectInput);
  const project = await addProject(input);
  const job = await startIndexJob(project.id, { afterSuccess: () => warmRunViews(project.id) });
  return NextResponse.json({ project, job }, { status: 201 });
});
