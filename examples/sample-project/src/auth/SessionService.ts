import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { pool } from '../db.js';

export interface Session {
  id: string;
  userId: string;
  tenantId: string;
  role: 'admin' | 'agent' | 'customer';
  expiresAt: Date;
}

const TTL_HOURS = Number(process.env.SESSION_TTL_HOURS ?? 12);
const CACHE_SECONDS = 300;

/**
 * Server-side sessions. Postgres is the source of truth; Redis caches resolved sessions
 * for five minutes. SessionService is the only writer of the `sessions` table (see
 * docs/decisions/0002-server-side-sessions.md): revoke through `revoke()` so the cache
 * entry is dropped in the same call.
 */
export class SessionService {
  constructor(private readonly redis = new Redis(process.env.REDIS_URL ?? 'redis://localhost:6379')) {}

  async create(userId: string, tenantId: string, role: Session['role']): Promise<Session> {
    const id = randomBytes(32).toString('base64url');
    const expiresAt = new Date(Date.now() + TTL_HOURS * 3600_000);
    await pool.query(
      'insert into sessions (id, user_id, tenant_id, role, expires_at) values ($1, $2, $3, $4, $5)',
      [id, userId, tenantId, role, expiresAt],
    );
    return { id, userId, tenantId, role, expiresAt };
  }

  async resolve(id: string): Promise<Session | null> {
    const cached = await this.redis.get(`session:${id}`);
    if (cached) {
      const session = JSON.parse(cached) as Session;
      return new Date(session.expiresAt) > new Date() ? session : null;
    }
    const { rows } = await pool.query(
      `select id, user_id as "userId", tenant_id as "tenantId", role, expires_at as "expiresAt"
         from sessions where id = $1 and revoked_at is null and expires_at > now()`,
      [id],
    );
    const session = (rows[0] as Session | undefined) ?? null;
    if (session) await this.redis.set(`session:${id}`, JSON.stringify(session), 'EX', CACHE_SECONDS);
    return session;
  }

  async revoke(id: string): Promise<void> {
    await pool.query('update sessions set revoked_at = now() where id = $1', [id]);
    await this.redis.del(`session:${id}`);
  }

  async revokeAllForUser(userId: string): Promise<number> {
    const { rows } = await pool.query(
      'update sessions set revoked_at = now() where user_id = $1 and revoked_at is null returning id',
      [userId],
    );
    if (rows.length > 0) await this.redis.del(...rows.map((r) => `session:${r.id}`));
    return rows.length;
  }
}
