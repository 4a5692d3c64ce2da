import { accountRoutes } from "@/lib/auth/schemas";
import { WorkbenchError } from "@/lib/core/errors";
import { listMembers, projectRole, removeMember, setMember } from "@/lib/auth/service";
import { handle } from "../../../../_lib/handler";

export const dynamic = "force-dynamic";

export const PATCH = handle(accountRoutes.setMemberRole, async ({ params: { id, userId }, body: { role } }) => {
  if (!(await projectRole(userId, id))) throw new WorkbenchError("NOT_FOUND", "That person is not a member of this project.");
  await setMember(id, userId, role);
  return { members: await listMembers(id) };
});

export const DELETE = handle(accountRoutes.removeMember, async ({ params: { id, userId } }) => {
  await removeMember(id, userId);
  return { members: await listMembers(id) };
});
