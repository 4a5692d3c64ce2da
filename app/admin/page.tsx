import { notFound } from "next/navigation";
import { pagePrincipal } from "@/app/_lib/page-access";
import { AccountsTable, CreateAccountForm } from "@/components/account/accounts-admin";
import { ApproverKeysAdmin } from "@/components/account/approver-keys-admin";
import { Card, CardHeader } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { readAuthConfig } from "@/lib/auth/config";
import { WorkbenchError } from "@/lib/core/errors";
import { listAccounts, listApproverKeyBindings } from "@/lib/auth/service";
import { loadHumanKeys } from "@/lib/memory/keys";
import { plural } from "@/lib/core/plural";

export const dynamic = "force-dynamic";
export const metadata = { title: "Admin" };

/** Key ids loaded on this server (never the secrets), or why they could not be read. */
function loadedKeyIds(): { keyIds: string[]; keyError: string | null } {
  try {
    return { keyIds: loadHumanKeys().keyIds(), keyError: null };
  } catch (e) {
    return { keyIds: [], keyError: e instanceof WorkbenchError ? e.message : "The human keys cannot be read." };
  }
}

export default async function AdminPage() {
  const config = readAuthConfig();
  if (config.mode !== "team") notFound();
  const principal = await pagePrincipal();
  if (principal.kind !== "user" || !principal.isAdmin) notFound();
  const [accounts, bindings] = await Promise.all([listAccounts(), listApproverKeyBindings()]);
  const { keyIds, keyError } = loadedKeyIds();
  return (
    <div>
      <PageHeader title="Admin" description="Accounts on this Workbench, and which approver signs with which key. Project roles are set on each project's Members page." />
      <div className="flex flex-col gap-6">
        <Card>
          <CardHeader
            title="Accounts"
            description={`${plural(accounts.length, "account")}. Instance admins see every project with the admin role, add projects and manage accounts.${
              config.signup === "open" ? " Sign-up is open: anyone who reaches the sign-in page can create an account." : " Sign-up is closed: accounts are created here."
            }`}
          />
          <div className="flex flex-col gap-6 p-4">
            <AccountsTable accounts={accounts} selfId={principal.userId} />
            <section aria-labelledby="create-account-title">
              <h3 id="create-account-title" className="mb-2 text-sm font-semibold">
                Create an account
              </h3>
              <CreateAccountForm />
            </section>
          </div>
        </Card>

        <Card>
          <CardHeader title="Approver keys" description="Signing keys loaded on this server (ids only, never secrets). An approver signs proposal decisions only with a key bound to their account." />
          <div className="flex flex-col gap-4 p-4">
            {keyError ? (
              <p role="alert" className="rounded-md border border-danger/40 bg-danger/10 px-3 py-2 text-sm text-danger">
                {keyError}
              </p>
            ) : null}
            <ApproverKeysAdmin keyIds={keyIds} bindings={bindings} emails={accounts.map((a) => a.email)} />
          </div>
        </Card>
      </div>
    </div>
  );
}
