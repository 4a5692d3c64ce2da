import { getAuth } from "@/lib/auth/instance";
import { isTeamMode } from "@/lib/auth/config";

export const dynamic = "force-dynamic";

/** The auth library's own endpoints (sign-in, sign-up, sign-out, OIDC callback); team mode only. */
async function handle(req: Request): Promise<Response> {
  if (!isTeamMode()) return Response.json({ error: { code: "NOT_FOUND", message: "Accounts exist in team mode only." } }, { status: 404 });
  return (await getAuth()).handler(req);
}

export const GET = handle;
export const POST = handle;
