import { headers } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { cache } from "react";
import { roleOn, visibleProjectIds } from "@/lib/auth/access";
import { principalFrom, type Principal } from "@/lib/auth/principal";
import { roleAtLeast, type Role } from "@/lib/auth/roles";

/**
 * The person viewing this page, or null (team mode, not signed in). Never redirects. Looked up
 * once per request: the layout and the page both ask.
 */
export const viewer = cache(async (): Promise<Principal | null> => principalFrom(await headers()));

/** The person viewing this page; team mode without a valid session goes to the sign-in page. */
export async function pagePrincipal(): Promise<Principal> {
  const p = await viewer();
  if (!p) redirect("/sign-in");
  return p;
}

/** Projects this page may show: null for every one. */
export async function pageVisibleProjects(): Promise<string[] | null> {
  return visibleProjectIds(await pagePrincipal());
}

/**
 * The caller's role on a project page's project. A project they cannot see is the not-found page,
 * exactly as a missing one; a role below `need` is the not-found page too (pages have no 403).
 */
export async function pageProjectRole(projectId: string, need: Role = "viewer"): Promise<{ principal: Principal; role: Role }> {
  const principal = await pagePrincipal();
  const role = await roleOn(principal, projectId);
  if (!role || !roleAtLeast(role, need)) notFound();
  return { principal, role };
}
