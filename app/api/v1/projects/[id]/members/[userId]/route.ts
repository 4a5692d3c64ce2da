import { NextResponse } from "next/server";
import { z } from "zod";
import { ROLES } from "@/lib/auth/roles";
import { WorkbenchError } from "@/lib/core/errors";
import { listMembers, projectRole, removeMember, setMember } from "@/lib/db/repositories/accounts";
import { projectRoute, readJson, requireAccount } from "../../../../_lib/respond";

export const dynamic = "force-dynamic";
const params = z.object({ id: z.string().min(1).max(64).describe("project id"), userId: z.string().min(1).max(64).describe("account id") });
const roleInput = z.object({ role: z.enum(ROLES).describe("viewer, editor, approver or admin") });

export const PATCH = projectRoute<{ id: string; userId: string }>("admin", async (req, p, ctx) => {
  requireAccount(ctx);
  const { id, userId } = params.parse(p);
  const { role } = await readJson(req, roleInput);
  if (!(await projectRole(userId, id))) throw new WorkbenchError("NOT_FOUND", "That person is not a member of this project.");
  await setMember(id, userId, role);
  return NextResponse.json({ members: await listMembers(id) });
});

export const DELETE = projectRoute<{ id: string; userId: string }>("admin", async (_req, p, ctx) => {
  requireAccount(ctx);
  const { id, userId } = params.parse(p);
  await removeMember(id, userId);
  return NextResponse.json({ members: await listMembers(id) });
});
