import { NextResponse } from "next/server";
import { listProjects } from "@/lib/db/repositories/projects";
import { warmRunViews } from "@/lib/deep-context/service";
import { startIndexJob } from "@/lib/indexer/jobs";
import { addProject, addProjectInput } from "@/lib/projects/add-project";
import { readJson, route } from "../_lib/respond";

export const dynamic = "force-dynamic";

export const GET = route(async () => NextResponse.json({ projects: await listProjects() }));

/** Registers a folder and starts indexing it; poll the returned job for progress. */
export const POST = route(async (req) => {
  const input = await readJson(req, addProjectInput);
  const project = await addProject(input);
  const job = await startIndexJob(project.id, { afterSuccess: () => warmRunViews(project.id) });
  return NextResponse.json({ project, job }, { status: 201 });
});
