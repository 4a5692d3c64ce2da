import type { Request, Response, NextFunction } from 'express';
import { SessionService, type Session } from '../../auth/SessionService.js';
import { readSessionCookie } from '../../auth/sessionCookie.js';

declare module 'express-serve-static-core' {
  interface Request {
    session?: Session;
  }
}

const sessions = new SessionService();

export async function requireSession(req: Request, res: Response, next: NextFunction): Promise<void> {
  const sessionId = readSessionCookie(req.headers.cookie);
  if (!sessionId) {
    res.status(401).json({ error: 'not_authenticated' });
    return;
  }
  try {
    const session = await sessions.resolve(sessionId);
    if (!session) {
      res.status(401).json({ error: 'session_expired' });
      return;
    }
    req.session = session;
    next();
  } catch (err) {
    next(err);
  }
}
