import { WorkbenchError } from "../../core/errors";
import { getDb } from "../client";

export interface DocumentDto {
  relPath: string;
  area: string;
  source: string | null;
  slug: string | null;
  title: string | null;
  content: string;
}

export interface CommitDto {
  hash: string;
  subject: string;
  message: string;
  date: string;
}

/** An indexed document as it was read (the repository file may have changed since). */
export async function getDocument(projectId: string, relPath: string): Promise<DocumentDto> {
  const db = await getDb();
  const d = await db.document.findFirst({ where: { projectId, relPath }, select: { relPath: true, area: true, source: true, slug: true, title: true, content: true } });
  if (!d) throw new WorkbenchError("NOT_FOUND", "No such indexed document.");
  return d;
}

export async function getCommit(projectId: string, hash: string): Promise<CommitDto> {
  const db = await getDb();
  const c = await db.gitCommit.findFirst({ where: { projectId, hash }, select: { hash: true, subject: true, message: true, date: true } });
  if (!c) throw new WorkbenchError("NOT_FOUND", "No such commit in the index.");
  return c;
}
