/**
 * Cross-site request refusal for state-changing requests. Session cookies (team mode) and no
 * credentials at all (local mode) both let a page on another site make a browser write here
 * with a simple form post, so a write must come from this origin: an `Origin` header, when the
 * browser sends one, must be ours, and `Sec-Fetch-Site: cross-site` is refused. Agents and
 * scripts (curl, tokens) send neither header and pass.
 */
import { WorkbenchError } from "../core/errors";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** The origin the request addressed (the proxy's X-Forwarded-* when behind one). */
export function addressedOrigin(req: Request): string {
  const url = new URL(req.url);
  const host = req.headers.get("x-forwarded-host") ?? req.headers.get("host") ?? url.host;
  const proto = req.headers.get("x-forwarded-proto") ?? url.protocol.slice(0, -1);
  return `${proto}://${host}`;
}

/** Whether a browser sent this request from a page of another site (agents and scripts send neither header). */
export function isCrossSite(req: Request, publicUrl?: string): boolean {
  if (req.headers.get("sec-fetch-site") === "cross-site") return true;
  const origin = req.headers.get("origin");
  if (origin === null) return false;
  const allowed = new Set([addressedOrigin(req)]);
  if (publicUrl) allowed.add(new URL(publicUrl).origin);
  return !allowed.has(origin);
}

export function refuseCrossSiteWrite(req: Request, publicUrl?: string): void {
  if (SAFE_METHODS.has(req.method.toUpperCase())) return;
  if (isCrossSite(req, publicUrl)) throw new WorkbenchError("FORBIDDEN", "A change must come from the Workbench's own pages (this request came from another site).");
}
