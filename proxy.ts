import { getSessionCookie } from "better-auth/cookies";
import { NextResponse, type NextRequest } from "next/server";
import { hostnameOf, isLoopbackHost, isTeamMode } from "@/lib/auth/config";

/**
 * Team mode's first gate for pages: no session cookie, no page, straight to sign-in with the way
 * back. Only the cookie's presence is checked here; every page and route verifies the session
 * itself (app/_lib/page-access.ts, app/api/v1/_lib/handler.ts), and API routes answer 401.
 */
export function proxy(req: NextRequest): NextResponse {
  if (!isTeamMode()) {
    // Local mode answers only to loopback names: a DNS-rebound name pointing here is not this machine's user.
    const host = req.headers.get("host") ?? req.nextUrl.host;
    if (!isLoopbackHost(hostnameOf(host))) return new NextResponse("Local mode serves loopback only (127.0.0.1, localhost).", { status: 421 });
    return NextResponse.next();
  }
  const { pathname, search } = req.nextUrl;
  if (pathname.startsWith("/api/") || pathname === "/sign-in") return NextResponse.next();
  if (getSessionCookie(req, { cookiePrefix: "workbench" })) return NextResponse.next();
  const to = req.nextUrl.clone();
  to.pathname = "/sign-in";
  to.search = pathname === "/" ? "" : `?next=${encodeURIComponent(pathname + search)}`;
  return NextResponse.redirect(to);
}

export const config = {
  matcher: ["/((?!_next/static|_next/image|favicon\\.ico|.*\\.(?:svg|png|ico|webp|woff2?)$).*)"],
};
