import { z } from 'zod';

export const uuidParam = z.object({ id: z.string().uuid() });

export const pagination = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().optional(),
});

export class ValidationError extends Error {
  constructor(public readonly issues: z.ZodIssue[]) {
    super('Request validation failed');
  }
}

export function parse<T>(schema: z.ZodType<T>, input: unknown): T {
  const result = schema.safeParse(input);
  if (!result.success) throw new ValidationError(result.error.issues);
  return result.data;
}
