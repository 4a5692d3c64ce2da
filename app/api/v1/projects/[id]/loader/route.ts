import { NextResponse } from "next/server";
import { z } from "zod";
import { loaderForProject, loaderInput } from "@/lib/moc/service";
import { readJson, projectRoute } from "../../../_lib/respond";

export const dynamic = "force-dynamic";
const params = z.object({ id: z.string().min(1).max(64).describe("project id") });

/** The context-loader pack for a prompt, with the walk that produced it. */
export const POST = projectRoute<{ id: string }>("viewer", async (req, p) => {
  const { id } = params.parse(p);
  const input = await readJson(req, loaderInput);
  return NextResponse.json(await loaderForProject(id, input));
});
