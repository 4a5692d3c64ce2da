import { createAccount, createToken } from "../../lib/auth/accounts";
import { resetAuthForTests } from "../../lib/auth/instance";

export const TEST_AUTH_SECRET = "test-secret-test-secret-test-secret-0123";

/** Switches this process to team mode (until `leaveTeamMode`). */
export function enterTeamMode(extra: Record<string, string> = {}): void {
  Object.assign(process.env, { WORKBENCH_MODE: "team", WORKBENCH_AUTH_SECRET: TEST_AUTH_SECRET, WORKBENCH_PUBLIC_URL: "http://127.0.0.1:3999", ...extra });
  resetAuthForTests();
}

export function leaveTeamMode(): void {
  for (const k of ["WORKBENCH_MODE", "WORKBENCH_AUTH_SECRET", "WORKBENCH_PUBLIC_URL", "WORKBENCH_SIGNUP"]) delete process.env[k];
  resetAuthForTests();
}

/** An account with a personal access token, for requests as that person. */
export async function accountWithToken(email: string, name = email.split("@")[0]!): Promise<{ id: string; token: string; headers: Record<string, string> }> {
  const account = await createAccount({ email, name, password: "correct horse battery" });
  const { token } = await createToken(account.id, { name: "test" });
  return { id: account.id, token, headers: { authorization: `Bearer ${token}` } };
}
