import { WorkbenchError } from "../../core/errors";
import { getDb } from "../client";

/** A personal access token as its owner sees it: never the token, only its first characters. */
export interface TokenDto {
  id: string;
  name: string;
  start: string | null;
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
}

export async function listTokens(userId: string): Promise<TokenDto[]> {
  const rows = await (
    await getDb()
  ).apikey.findMany({
    where: { referenceId: userId },
    select: { id: true, name: true, start: true, createdAt: true, expiresAt: true, lastRequest: true },
    orderBy: { createdAt: "desc" },
  });
  return rows.map((r) => ({
    id: r.id,
    name: r.name ?? "",
    start: r.start,
    createdAt: r.createdAt.toISOString(),
    expiresAt: r.expiresAt?.toISOString() ?? null,
    lastUsedAt: r.lastRequest?.toISOString() ?? null,
  }));
}

/** Revokes one of the owner's tokens; someone else's token answers like a missing one. */
export async function revokeToken(userId: string, tokenId: string): Promise<void> {
  const res = await (await getDb()).apikey.deleteMany({ where: { id: tokenId, referenceId: userId } });
  if (res.count === 0) throw new WorkbenchError("NOT_FOUND", "No such token.");
}
