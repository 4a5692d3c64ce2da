// The roles themselves are stored in ProjectMember.role: lib/db/dto.ts defines them.
import { ROLES, type Role } from "../db/dto";

export { ROLES, type Role, isRole } from "../db/dto";

export function roleAtLeast(have: Role, need: Role): boolean {
  return ROLES.indexOf(have) >= ROLES.indexOf(need);
}

/** What each role adds, in the words the members page shows. */
export const ROLE_GRANTS: Record<Role, string> = {
  viewer: "reads everything in the project",
  editor: "edits packets and briefs, comments, sends them for review, saves views, re-indexes and fetches",
  approver: "approves briefs or asks for changes, signs proposal decisions with a key bound to their account, applies proposals",
  admin: "manages members and removes the project",
};
