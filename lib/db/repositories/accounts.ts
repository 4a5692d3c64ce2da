import { WorkbenchError } from "../../core/errors";
import { getDb } from "../client";
import { isRole, type Role } from "../dto";

export interface AccountDto {
  id: string;
  name: string;
  email: string;
  isAdmin: boolean;
  createdAt: string;
}

export interface MemberDto {
  userId: string;
  name: string;
  email: string;
  role: Role;
  since: string;
}

const accountSelect = { id: true, name: true, email: true, isAdmin: true, createdAt: true } as const;
const toAccount = (u: { id: string; name: string; email: string; isAdmin: boolean; createdAt: Date }): AccountDto => ({
  ...u,
  createdAt: u.createdAt.toISOString(),
});

export async function countAccounts(): Promise<number> {
  return (await getDb()).user.count();
}

export async function getAccount(userId: string): Promise<AccountDto | null> {
  const u = await (await getDb()).user.findUnique({ where: { id: userId }, select: accountSelect });
  return u ? toAccount(u) : null;
}

export async function findAccountByEmail(email: string): Promise<AccountDto | null> {
  const u = await (await getDb()).user.findUnique({ where: { email: email.trim().toLowerCase() }, select: accountSelect });
  return u ? toAccount(u) : null;
}

export async function listAccounts(): Promise<AccountDto[]> {
  return (await (await getDb()).user.findMany({ select: accountSelect, orderBy: { createdAt: "asc" } })).map(toAccount);
}

export async function setInstanceAdmin(userId: string, isAdmin: boolean): Promise<void> {
  const db = await getDb();
  if (!isAdmin) {
    const admins = await db.user.count({ where: { isAdmin: true, id: { not: userId } } });
    if (admins === 0) throw new WorkbenchError("CONFLICT", "This is the last instance admin; make someone else admin first.");
  }
  const res = await db.user.updateMany({ where: { id: userId }, data: { isAdmin } });
  if (res.count === 0) throw new WorkbenchError("NOT_FOUND", "No such account.");
}

/** The first account becomes instance admin: someone has to be able to add projects and people. */
export async function promoteIfFirstAccount(userId: string): Promise<void> {
  const db = await getDb();
  const first = await db.user.findFirst({ orderBy: [{ createdAt: "asc" }, { id: "asc" }], select: { id: true } });
  if (first?.id === userId) await db.user.update({ where: { id: userId }, data: { isAdmin: true } });
}

export async function projectRole(userId: string, projectId: string): Promise<Role | null> {
  const m = await (await getDb()).projectMember.findUnique({ where: { projectId_userId: { projectId, userId } }, select: { role: true } });
  return m && isRole(m.role) ? m.role : null;
}

export async function memberProjectIds(userId: string): Promise<string[]> {
  const rows = await (await getDb()).projectMember.findMany({ where: { userId }, select: { projectId: true } });
  return rows.map((r) => r.projectId);
}

export async function listMembers(projectId: string): Promise<MemberDto[]> {
  const rows = await (
    await getDb()
  ).projectMember.findMany({
    where: { projectId },
    include: { user: { select: { name: true, email: true } } },
    orderBy: { createdAt: "asc" },
  });
  return rows.filter((r) => isRole(r.role)).map((r) => ({ userId: r.userId, name: r.user.name, email: r.user.email, role: r.role as Role, since: r.createdAt.toISOString() }));
}

export async function setMember(projectId: string, userId: string, role: Role): Promise<void> {
  await (
    await getDb()
  ).projectMember.upsert({
    where: { projectId_userId: { projectId, userId } },
    create: { projectId, userId, role },
    update: { role },
  });
}

export async function removeMember(projectId: string, userId: string): Promise<void> {
  const res = await (await getDb()).projectMember.deleteMany({ where: { projectId, userId } });
  if (res.count === 0) throw new WorkbenchError("NOT_FOUND", "That person is not a member of this project.");
}

/** Key ids bound to this account: the only keys it may sign approvals with. */
export async function approverKeysOf(userId: string): Promise<string[]> {
  const rows = await (await getDb()).approverKey.findMany({ where: { userId }, select: { keyId: true }, orderBy: { keyId: "asc" } });
  return rows.map((r) => r.keyId);
}

export async function listApproverKeyBindings(): Promise<{ keyId: string; userId: string; email: string }[]> {
  const rows = await (await getDb()).approverKey.findMany({ include: { user: { select: { email: true } } }, orderBy: { keyId: "asc" } });
  return rows.map((r) => ({ keyId: r.keyId, userId: r.userId, email: r.user.email }));
}

/** Binds a key id to one account; a key already bound to someone else is refused, not moved. */
export async function bindApproverKey(keyId: string, userId: string): Promise<void> {
  const db = await getDb();
  const existing = await db.approverKey.findUnique({ where: { keyId } });
  if (existing && existing.userId !== userId) throw new WorkbenchError("CONFLICT", `The key ${keyId} is bound to another account; unbind it first.`);
  if (!existing) await db.approverKey.create({ data: { keyId, userId } });
}

export async function unbindApproverKey(keyId: string): Promise<void> {
  const res = await (await getDb()).approverKey.deleteMany({ where: { keyId } });
  if (res.count === 0) throw new WorkbenchError("NOT_FOUND", `The key ${keyId} is not bound to any account.`);
}
