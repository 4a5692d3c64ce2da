import type { FileWarning } from "../../core/warnings";
import { getDb } from "../client";
import type { WarningDto } from "../dto";

export async function listWarnings(projectId: string, limit = 1000): Promise<WarningDto[]> {
  const db = await getDb();
  const rows = await db.indexWarning.findMany({ where: { projectId }, orderBy: [{ relPath: "asc" }, { createdAt: "asc" }], take: limit });
  return rows.map((r) => ({ id: r.id, relPath: r.relPath, field: r.field ?? undefined, code: r.code as FileWarning["code"], message: r.message }));
}
