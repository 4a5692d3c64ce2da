import { NextResponse } from "next/server";
import { z } from "zod";
import { breakCoordLock, breakLockInput } from "@/lib/memory/desk";
import { readJson, projectRoute } from "../../../../../_lib/respond";

export const dynamic = "force-dynamic";
const params = z.object({ id: z.string().min(1).max(64).describe("project id") });

/** Removes a .coord lock left by a crash, only when this host confirms its owner process is gone; approvers only. */
export const POST = projectRoute<{ id: string }>("approver", async (req, p) => {
  const { id } = params.parse(p);
  return NextResponse.json(await breakCoordLock(id, await readJson(req, breakLockInput)));
});
