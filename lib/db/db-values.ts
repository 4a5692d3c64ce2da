/**
 * Values as plain SQL returns them, made into what Prisma would have returned. SQLite keeps
 * DateTime as text ("2026-12-02T11:07:44.907+00:00") and Boolean as 0/1; PostgreSQL gives
 * Date objects (timestamps are stored in UTC without a zone; the read pool parses them as UTC)
 * and booleans.
 */
export function isoTime(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (v instanceof Date) return v.toISOString();
  if (typeof v === "number") return new Date(v).toISOString();
  const d = new Date(String(v));
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

export function bool(v: unknown): boolean {
  return v === true || v === 1 || v === "1" || v === "t";
}

/** COUNT(*) comes back as a string from PostgreSQL (BIGINT). */
export function count(v: unknown): number {
  return Number(v ?? 0);
}

/** A LIKE pattern matching `text` anywhere, with its wildcards taken literally (ESCAPE '\'). */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
