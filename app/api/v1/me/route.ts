import { accountRoutes } from "@/lib/auth/schemas";
import { handle } from "../_lib/handler";

export const dynamic = "force-dynamic";

/** Who the request is: `{mode:"local"}`, or the signed-in account and how it authenticated. */
export const GET = handle(accountRoutes.me, async ({ principal }) => (principal.kind === "local" ? { mode: "local" as const } : { mode: "team" as const, account: principal }));
