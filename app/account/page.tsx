import Link from "next/link";
import { notFound } from "next/navigation";
import { pagePrincipal } from "@/app/_lib/page-access";
import { SignOutButton } from "@/components/account/sign-out-button";
import { TokenManager } from "@/components/account/token-manager";
import { Badge } from "@/components/ui/badge";
import { Card, CardHeader } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { readAuthConfig } from "@/lib/auth/config";
import { approverKeysOf, listTokens } from "@/lib/auth/service";

export const dynamic = "force-dynamic";
export const metadata = { title: "Account" };

export default async function AccountPage() {
  const config = readAuthConfig();
  if (config.mode !== "team") notFound();
  const principal = await pagePrincipal();
  if (principal.kind !== "user") notFound();
  const [keyIds, tokens] = await Promise.all([approverKeysOf(principal.userId), listTokens(principal.userId)]);
  return (
    <div>
      <PageHeader title="Account" description="Who you are on this Workbench, and the tokens your agents sign in with." actions={<SignOutButton />} />
      <div className="flex flex-col gap-6">
        <Card>
          <CardHeader title="Profile" />
          <dl className="grid gap-x-6 gap-y-3 p-4 text-sm sm:grid-cols-[8rem_1fr]">
            <dt className="text-fg-muted">Name</dt>
            <dd className="font-medium">{principal.name}</dd>
            <dt className="text-fg-muted">Email</dt>
            <dd>{principal.email}</dd>
            <dt className="text-fg-muted">Instance role</dt>
            <dd>
              {principal.isAdmin ? (
                <>
                  <Badge tone="accent">Instance admin</Badge>
                  <span className="ml-2 text-fg-muted">
                    Every project, with the admin role.{" "}
                    <Link href="/admin" className="text-accent hover:underline">
                      Manage accounts and keys
                    </Link>
                  </span>
                </>
              ) : (
                <span className="text-fg-muted">Member: your role is set per project by its admins.</span>
              )}
            </dd>
          </dl>
        </Card>

        <Card>
          <CardHeader title="Approver keys" description="Signing keys you may approve memory proposals with. Keys stay on the server; only their ids are shown." />
          <div className="p-4 text-sm">
            {keyIds.length === 0 ? (
              <p className="text-fg-muted">No key is bound to your account. An instance admin binds one on the admin page; until then you cannot sign proposal decisions.</p>
            ) : (
              <ul className="flex flex-wrap gap-2" aria-label="Approver key ids">
                {keyIds.map((k) => (
                  <li key={k}>
                    <code className="rounded bg-muted px-1.5 py-0.5 font-mono text-xs">{k}</code>
                  </li>
                ))}
              </ul>
            )}
          </div>
        </Card>

        <Card>
          <CardHeader
            title="Personal access tokens"
            description={
              <>
                For agents, the CLI and scripts: send <code className="font-mono">Authorization: Bearer wb_…</code>. A token acts as you, with your roles.
              </>
            }
          />
          <div className="p-4">
            <TokenManager tokens={tokens} publicUrl={config.publicUrl ?? null} />
          </div>
        </Card>
      </div>
    </div>
  );
}
