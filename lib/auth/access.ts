/**
 * What a principal may do on a project. A project the person cannot see answers exactly like one
 * that does not exist, so an id tells nobody whether it is there.
 */
import { WorkbenchError } from "../core/errors";
import { approverKeysOf, memberProjectIds, projectRole } from "../db/repositories/accounts";
import type { Principal } from "./principal";
import { roleAtLeast, type Role } from "./roles";

/** The same error a missing project raises (lib/db/repositories/projects.ts). */
export const projectNotFound = () => new WorkbenchError("NOT_FOUND", "No such project.");

export function requireSignedIn(p: Principal | null): Principal {
  if (!p) throw new WorkbenchError("UNAUTHENTICATED", "Sign in, or send a personal access token as `Authorization: Bearer wb_…`.");
  return p;
}

/** Local mode and instance admins hold every role on every project. */
export async function roleOn(p: Principal, projectId: string): Promise<Role | null> {
  if (p.kind === "local" || p.isAdmin) return "admin";
  return projectRole(p.userId, projectId);
}

export async function requireProjectRole(p: Principal, projectId: string, need: Role): Promise<Role> {
  const role = await roleOn(p, projectId);
  if (!role) throw projectNotFound();
  if (!roleAtLeast(role, need)) {
    throw new WorkbenchError("FORBIDDEN", `Your role on this project is ${role}; this needs ${need} or above.`);
  }
  return role;
}

/** The projects a principal sees: every one (null) or these ids. */
export async function visibleProjectIds(p: Principal): Promise<string[] | null> {
  if (p.kind === "local" || p.isAdmin) return null;
  return memberProjectIds(p.userId);
}

export function requireInstanceAdmin(p: Principal): void {
  if (p.kind === "user" && !p.isAdmin) throw new WorkbenchError("FORBIDDEN", "Only an instance administrator can do this.");
}

/**
 * Team mode: an approver signs only with a key bound to their own account, so a key on the server
 * cannot be used by whoever happens to hold the approver role. Local mode: every loaded key.
 */
export async function signableKeyIds(p: Principal): Promise<string[] | null> {
  return p.kind === "local" ? null : approverKeysOf(p.userId);
}

export async function requireSigningKey(p: Principal, keyId: string): Promise<void> {
  const keys = await signableKeyIds(p);
  if (keys && !keys.includes(keyId)) {
    throw new WorkbenchError("FORBIDDEN", `The signing key ${keyId} is not bound to your account.`);
  }
}
