import { NextResponse } from "next/server";
import { z } from "zod";
import { ProjectFs } from "@/lib/core/project-fs";
import { getProject } from "@/lib/db/repositories/projects";
import { verifyEvidence } from "@/lib/deep-context/views";
import { projectRoute, searchParams } from "../../../_lib/respond";

export const dynamic = "force-dynamic";
const params = z.object({ id: z.string().min(1).max(64).describe("project id") });
const query = z.object({
  path: z.string().max(2000).default("").describe("the finding's path"),
  symbol: z.string().max(500).default("").describe("the finding's symbol"),
  evidence: z.string().max(2000).default("").describe("the finding's evidence, usually file:line"),
});

/** Whether a finding's evidence still holds in the repository (verified / stale / missing). */
export const GET = projectRoute<{ id: string }>("viewer", async (req, p) => {
  const { id } = params.parse(p);
  const q = query.parse(searchParams(req));
  const project = await getProject(id);
  return NextResponse.json({ check: await verifyEvidence(await ProjectFs.open(project.rootPath), q) });
});
