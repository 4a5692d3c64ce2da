import { createAccount } from "@/lib/auth/accounts";
import { accountRoutes } from "@/lib/auth/schemas";
import { listAccounts } from "@/lib/auth/service";
import { handle } from "../../_lib/handler";

export const dynamic = "force-dynamic";

export const GET = handle(accountRoutes.accounts, async () => ({ accounts: await listAccounts() }));

/** Creates an account with an initial password (sign-up is closed by default in team mode). */
export const POST = handle(accountRoutes.createAccount, async ({ body }) => ({ account: await createAccount(body) }));
