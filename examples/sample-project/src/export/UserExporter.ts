import type { Pool } from 'pg';

export interface ExportedUser {
  id: string;
  email: string;
  displayName: string;
  role: string;
  createdAt: Date;
  lastLoginAt: Date | null;
}

const COLUMNS: Array<[header: string, pick: (u: ExportedUser) => unknown]> = [
  ['id', (u) => u.id],
  ['email', (u) => u.email],
  ['display_name', (u) => u.displayName],
  ['role', (u) => u.role],
  ['created_at', (u) => u.createdAt.toISOString()],
  ['last_login_at', (u) => u.lastLoginAt?.toISOString() ?? ''],
];

const BATCH_SIZE = 500;

/**
 * Streams a tenant's users as CSV (RFC 4180), in batches of 500 rows so a 200k-user
 * tenant never sits in memory. Used by the export worker (ExportJob), never inline in
 * an HTTP handler.
 */
export class UserExporter {
  constructor(private readonly pool: Pool) {}

  async *csv(tenantId: string): AsyncGenerator<string> {
    yield COLUMNS.map(([header]) => header).join(',') + '\r\n';
    let after = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      const { rows } = await this.pool.query(
        `select id, email, display_name as "displayName", role, created_at as "createdAt",
                last_login_at as "lastLoginAt"
           from users where tenant_id = $1 and id > $2 order by id limit $3`,
        [tenantId, after, BATCH_SIZE],
      );
      if (rows.length === 0) return;
      for (const user of rows as ExportedUser[]) {
        yield COLUMNS.map(([, pick]) => csvCell(pick(user))).join(',') + '\r\n';
      }
      after = (rows[rows.length - 1] as ExportedUser).id;
    }
  }
}

/**
 * Quotes a value for CSV and neutralises spreadsheet formulas: a cell starting with
 * = + - @ (or a tab/CR) is prefixed with a single quote so Excel shows it as text.
 */
export function csvCell(value: unknown): string {
  let text = value == null ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) || text.startsWith("'") ? `"${text.replace(/"/g, '""')}"` : text;
}
