import { NextResponse } from "next/server";
import { z } from "zod";
import { getJob } from "@/lib/db/repositories/jobs";
import { route } from "../../_lib/respond";

export const dynamic = "force-dynamic";
const params = z.object({ id: z.string().min(1).max(64).describe("job id") });

export const GET = route<{ id: string }>(async (_req, p) => NextResponse.json({ job: await getJob(params.parse(p).id) }));
