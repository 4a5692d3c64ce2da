import { NextResponse } from "next/server";
import { z } from "zod";
import { kbHealthForProject } from "@/lib/moc/service";
import { projectRoute } from "../../../_lib/respond";

export const dynamic = "force-dynamic";
const params = z.object({ id: z.string().min(1).max(64).describe("project id") });

/** The docs/ MOC tree and its health: broken links, oversize indexes, unreachable files. */
export const GET = projectRoute<{ id: string }>("viewer", async (_req, p) => NextResponse.json({ kb: await kbHealthForProject(params.parse(p).id) }));
