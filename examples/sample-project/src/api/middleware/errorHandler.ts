import type { Request, Response, NextFunction } from 'express';
import { ValidationError } from '../validation.js';

export function errorHandler(err: unknown, req: Request, res: Response, _next: NextFunction): void {
  if (err instanceof ValidationError) {
    res.status(400).json({ error: 'invalid_request', issues: err.issues });
    return;
  }
  console.error('unhandled error', { path: req.path, err });
  res.status(500).json({ error: 'internal_error' });
}
