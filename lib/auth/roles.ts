/** A person's role on one project; each role can do everything the ones before it can. */
export const ROLES = ["viewer", "editor", "approver", "admin"] as const;
export type Role = (typeof ROLES)[number];

export function isRole(v: unknown): v is Role {
  return typeof v === "string" && (ROLES as readonly string[]).includes(v);
}

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
