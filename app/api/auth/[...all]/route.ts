import { readAuthConfig } from "@/lib/auth/config";
import { getAuth, SIGNUP_CLOSED } from "@/lib/auth/instance";
import { isSetupCode, SETUP_CODE_HEADER } from "@/lib/auth/setup-code";
import { countAccounts } from "@/lib/auth/service";

export const dynamic = "force-dynamic";

/**
 * Only the auth library's endpoints the Workbench uses. The rest stay closed: renaming yourself
 * (names are what review history shows), the library's own token endpoints (ours validate
 * expiry and names), account deletion and the like.
 */
const OPEN: Record<string, RegExp> = {
  GET: /^\/(get-session|callback\/[\w-]+|error|ok)$/,
  POST: /^\/(sign-in\/email|sign-in\/social|sign-up\/email|sign-out|change-password|callback\/[\w-]+)$/,
};

const refuse = (status: number, code: string, message: string) => Response.json({ error: { code, message } }, { status });

async function handle(req: Request): Promise<Response> {
  const config = readAuthConfig();
  if (config.mode === "local") return refuse(404, "NOT_FOUND", "Accounts exist in team mode only.");
  const path = new URL(req.url).pathname.replace(/^\/api\/auth/, "");
  if (!OPEN[req.method]?.test(path)) return refuse(404, "NOT_FOUND", "No such endpoint.");
  if (req.method === "POST" && path === "/sign-up/email") {
    // Decided before the library looks the email up, so a closed sign-up says nothing about who has an account.
    if ((await countAccounts()) === 0) {
      if (!isSetupCode(config.secret, req.headers.get(SETUP_CODE_HEADER))) {
        return refuse(403, "FORBIDDEN", "The first account needs the setup code that `workbench serve` printed when it started.");
      }
    } else if (config.signup !== "open") {
      return refuse(403, "FORBIDDEN", SIGNUP_CLOSED);
    }
  }
  return (await getAuth()).handler(req);
}

export const GET = handle;
export const POST = handle;
