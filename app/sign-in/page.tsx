import { redirect } from "next/navigation";
import { BookOpen } from "lucide-react";
import { viewer } from "@/app/_lib/page-access";
import { SignInForm } from "@/components/account/sign-in-form";
import { safeNext } from "@/components/account/safe-next";
import { Card } from "@/components/ui/card";
import { readAuthConfig } from "@/lib/auth/config";
import { countAccounts } from "@/lib/auth/service";

export const dynamic = "force-dynamic";
export const metadata = { title: "Sign in" };

/** What the auth library's OAuth callback puts in `?error=` when single sign-on fails. */
function ssoError(code: string | string[] | undefined): string | null {
  const c = Array.isArray(code) ? code[0] : code;
  if (!c) return null;
  if (c === "signup_disabled") return "Single sign-on worked, but this server does not create accounts that way. Ask an administrator.";
  return `Single sign-on did not complete (${c.replace(/[^\w.-]/g, " ").slice(0, 80)}). Try again, or sign in with your email and password.`;
}

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const config = readAuthConfig();
  if (config.mode === "local") redirect("/");
  const sp = await searchParams;
  const next = safeNext(sp.next);
  if (await viewer()) redirect(next);
  const firstAccount = (await countAccounts()) === 0;
  const canSignUp = config.signup === "open" || firstAccount;
  return (
    <div className="mx-auto max-w-sm pt-12">
      <div className="mb-6 flex flex-col items-center gap-2 text-center">
        <BookOpen aria-hidden className="size-7 text-accent" />
        <h1 className="text-xl font-semibold tracking-tight">Sign in</h1>
        <p className="text-sm text-fg-muted">to the Context Workbench of your team.</p>
      </div>
      <Card className="p-5">
        <SignInForm
          next={next}
          canSignUp={canSignUp}
          firstAccount={firstAccount}
          oidcName={config.oidc?.name ?? null}
          initialError={ssoError(sp.error)}
          initialSetupCode={typeof sp.setup === "string" ? sp.setup.slice(0, 64) : ""}
        />
      </Card>
      <p className="mt-4 text-center text-xs text-fg-muted">Agents and the CLI sign in with a personal access token instead, created on your account page.</p>
    </div>
  );
}
