import { WorkbenchError } from "../../core/errors";
import type { SavedViewDto, ViewSurface } from "../dto";
import { getDb } from "../client";
import { isoTime } from "../db-values";
import { readSql } from "../sql-tx";

const toDto = (r: { id: string; projectId: string; surface: string; name: string; query: string; createdAt: Date }): SavedViewDto => ({
  id: r.id,
  projectId: r.projectId,
  surface: r.surface as ViewSurface,
  name: r.name,
  path: r.query,
  createdAt: r.createdAt.toISOString(),
});

export async function listSavedViews(projectId: string, surface?: ViewSurface): Promise<SavedViewDto[]> {
  // Plain SQL: the inventory and run pages list their views (see lib/db/read-connection.ts).
  const rows = await readSql<{ id: string; projectId: string; surface: string; name: string; query: string; createdAt: unknown }>(
    `SELECT "id", "projectId", "surface", "name", "query", "createdAt" FROM "SavedView" WHERE "projectId" = ?${surface ? ` AND "surface" = ?` : ""} ORDER BY "surface" ASC, "name" ASC`,
    surface ? [projectId, surface] : [projectId],
  );
  return rows.map((r) => toDto({ ...r, createdAt: new Date(isoTime(r.createdAt) ?? 0) }));
}

export async function countSavedViews(projectId: string, surface: ViewSurface): Promise<number> {
  const db = await getDb();
  return db.savedView.count({ where: { projectId, surface } });
}

/** Saves a view; the same name on the same surface replaces the earlier one. */
export async function upsertSavedView(projectId: string, v: { surface: ViewSurface; name: string; path: string }): Promise<SavedViewDto> {
  const db = await getDb();
  const row = await db.savedView.upsert({
    where: { projectId_surface_name: { projectId, surface: v.surface, name: v.name } },
    create: { projectId, surface: v.surface, name: v.name, query: v.path },
    update: { query: v.path },
  });
  return toDto(row);
}

export async function deleteSavedView(projectId: string, id: string): Promise<void> {
  const db = await getDb();
  const { count } = await db.savedView.deleteMany({ where: { id, projectId } });
  if (count === 0) throw new WorkbenchError("NOT_FOUND", "No such saved view.");
}
