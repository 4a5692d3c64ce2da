import { accountRoutes } from "@/lib/auth/schemas";
import { WorkbenchError } from "@/lib/core/errors";
import { findAccountByEmail, listMembers, setMember } from "@/lib/auth/service";
import { handle } from "../../../_lib/handler";

export const dynamic = "force-dynamic";

/** Who is on the project and in which role; every member may see it. */
export const GET = handle(accountRoutes.members, async ({ params }) => ({ members: await listMembers(params.id) }));

/** Adds an account to the project, or changes its role. */
export const POST = handle(accountRoutes.addMember, async ({ params: { id }, body }) => {
  const account = await findAccountByEmail(body.email);
  if (!account) throw new WorkbenchError("NOT_FOUND", `No account for ${body.email}; an instance admin creates it first.`);
  await setMember(id, account.id, body.role);
  return { members: await listMembers(id) };
});
