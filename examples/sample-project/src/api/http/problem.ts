import type { Response } from 'express';

/**
 * RFC 9457 problem details. Controllers call `sendProblem` instead of hand-building
 * `{ error: '...' }` bodies so every error response has the same shape.
 */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail?: string;
  [extension: string]: unknown;
}

const BASE = 'https://errors.acme.test/orders/';

export function problem(status: number, code: string, title: string, extra: Partial<Problem> = {}): Problem {
  return { type: `${BASE}${code}`, title, status, ...extra };
}

export function sendProblem(res: Response, p: Problem): void {
  res.status(p.status).type('application/problem+json').json(p);
}

export const notFound = (what: string) => problem(404, `${what}-not-found`, `The ${what} does not exist`);
export const forbidden = () => problem(403, 'forbidden', 'You are not allowed to do this');
export const conflict = (code: string, title: string) => problem(409, code, title);
