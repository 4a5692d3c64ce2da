import { NextResponse } from "next/server";
import { z } from "zod";
import { ROLES } from "@/lib/auth/roles";
import { WorkbenchError } from "@/lib/core/errors";
import { findAccountByEmail, listMembers, setMember } from "@/lib/db/repositories/accounts";
import { projectRoute, readJson, requireAccount } from "../../../_lib/respond";

export const dynamic = "force-dynamic";
const params = z.object({ id: z.string().min(1).max(64).describe("project id") });
const memberInput = z.object({
  email: z.email().max(254).describe("the account's sign-in email"),
  role: z.enum(ROLES).describe("viewer, editor, approver or admin"),
});

/** Who is on the project and in which role; every member may see it. */
export const GET = projectRoute<{ id: string }>("viewer", async (_req, p, ctx) => {
  requireAccount(ctx);
  return NextResponse.json({ members: await listMembers(params.parse(p).id) });
});

/** Adds an account to the project, or changes its role. */
export const POST = projectRoute<{ id: string }>("admin", async (req, p, ctx) => {
  requireAccount(ctx);
  const { id } = params.parse(p);
  const input = await readJson(req, memberInput);
  const account = await findAccountByEmail(input.email);
  if (!account) throw new WorkbenchError("NOT_FOUND", `No account for ${input.email}; an instance admin creates it first.`);
  await setMember(id, account.id, input.role);
  return NextResponse.json({ members: await listMembers(id) }, { status: 201 });
});
