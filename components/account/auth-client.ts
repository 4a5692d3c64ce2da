import { createAuthClient } from "better-auth/client";

/**
 * The auth library's browser client for /api/auth/* (same origin). Created on first use, in the
 * browser only: during server rendering there is no origin to talk to.
 */
let client: ReturnType<typeof createAuthClient> | null = null;

export function authClient(): ReturnType<typeof createAuthClient> {
  client ??= createAuthClient({ baseURL: `${window.location.origin}/api/auth` });
  return client;
}

/** The library's error message, or a sentence built from the status. */
export function authErrorMessage(error: { message?: string; status?: number; statusText?: string } | null | undefined): string {
  if (error?.message) return error.message;
  if (error?.status === 429) return "Too many attempts: wait a minute and try again.";
  return `The server answered ${error?.status ?? "with an error"}${error?.statusText ? ` (${error.statusText})` : ""}.`;
}
