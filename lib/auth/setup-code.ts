/**
 * The one-time code that creates a team server's first account (its instance administrator).
 * Derived from WORKBENCH_AUTH_SECRET, so only whoever configured the server (and reads its log,
 * where `workbench serve` prints it) can claim the server: not the first visitor to reach it.
 */
import crypto from "node:crypto";

export const SETUP_CODE_HEADER = "x-workbench-setup-code";

export function setupCode(secret: string): string {
  return crypto.createHmac("sha256", secret).update("workbench-first-account").digest("base64url").slice(0, 16);
}

export function isSetupCode(secret: string, given: string | null | undefined): boolean {
  if (!given) return false;
  const want = Buffer.from(setupCode(secret));
  const got = Buffer.from(given.trim());
  return want.length === got.length && crypto.timingSafeEqual(want, got);
}
