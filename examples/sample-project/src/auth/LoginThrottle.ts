import type { Redis } from 'ioredis';

const WINDOW_SECONDS = 15 * 60;
const MAX_FAILURES = 5;

/**
 * Counts failed logins per account (not per IP: the storefront sits behind a CDN and
 * shares egress addresses). After five failures in 15 minutes the account is locked for
 * the rest of the window; a successful login clears the counter.
 */
export class LoginThrottle {
  constructor(private readonly redis: Redis) {}

  private key(email: string): string {
    return `login-failures:${email.trim().toLowerCase()}`;
  }

  async isLocked(email: string): Promise<boolean> {
    const failures = Number((await this.redis.get(this.key(email))) ?? 0);
    return failures >= MAX_FAILURES;
  }

  async recordFailure(email: string): Promise<number> {
    const key = this.key(email);
    const failures = await this.redis.incr(key);
    if (failures === 1) await this.redis.expire(key, WINDOW_SECONDS);
    return failures;
  }

  async recordSuccess(email: string): Promise<void> {
    await this.redis.del(this.key(email));
  }
}
