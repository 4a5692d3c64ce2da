import type { Command } from "commander";
import { WorkbenchError } from "../../lib/core/errors";
import { stdout } from "../output";

/** Reads a secret from stdin (piped), so it never appears in argv, shell history or `ps`. */
async function readStdinSecret(what: string): Promise<string> {
  if (process.stdin.isTTY) throw new WorkbenchError("INVALID_INPUT", `Pipe the ${what} on stdin, e.g. \`printf %s "$PASSWORD" | workbench account create …\`.`);
  let data = "";
  for await (const chunk of process.stdin) data += String(chunk);
  return data.replace(/\r?\n$/, "");
}

async function accountByEmail(email: string) {
  const { findAccountByEmail } = await import("../../lib/db/repositories/accounts");
  const account = await findAccountByEmail(email);
  if (!account) throw new WorkbenchError("NOT_FOUND", `No account for ${email}.`);
  return account;
}

/**
 * `workbench account …`: team mode's accounts from the server's shell (the first admin, people,
 * roles, approver keys, tokens for agents). Runs with the server's environment and database.
 */
export function registerAccount(program: Command, setCode: (c: number) => void): void {
  const account = program.command("account").description("Team mode: accounts, project roles, approver keys and access tokens.");
  account
    .command("create")
    .description("Create an account; the password is read from stdin.")
    .requiredOption("--email <email>", "sign-in email")
    .requiredOption("--name <name>", "display name")
    .option("--admin", "make it an instance administrator")
    .action(async (opts: { email: string; name: string; admin?: boolean }) => {
      const { createAccount } = await import("../../lib/auth/accounts");
      const { setInstanceAdmin } = await import("../../lib/db/repositories/accounts");
      const created = await createAccount({ email: opts.email, name: opts.name, password: await readStdinSecret("password") });
      if (opts.admin && !created.isAdmin) await setInstanceAdmin(created.id, true);
      stdout.line(`created ${created.email}${opts.admin || created.isAdmin ? " (instance admin)" : ""}`);
      setCode(0);
    });
  account
    .command("admin")
    .description("Grant (or with --revoke, take away) instance administration.")
    .requiredOption("--email <email>", "the account")
    .option("--revoke", "take it away")
    .action(async (opts: { email: string; revoke?: boolean }) => {
      const { setInstanceAdmin } = await import("../../lib/db/repositories/accounts");
      const a = await accountByEmail(opts.email);
      await setInstanceAdmin(a.id, !opts.revoke);
      stdout.line(`${a.email} is ${opts.revoke ? "no longer" : "now"} an instance admin`);
      setCode(0);
    });
  account
    .command("role")
    .description("Set someone's role on a project (viewer, editor, approver, admin, or none to remove).")
    .requiredOption("--project <id>", "project id")
    .requiredOption("--email <email>", "the account")
    .requiredOption("--role <role>", "viewer | editor | approver | admin | none")
    .action(async (opts: { project: string; email: string; role: string }) => {
      const { isRole } = await import("../../lib/auth/roles");
      const { removeMember, setMember } = await import("../../lib/db/repositories/accounts");
      const { getProject } = await import("../../lib/db/repositories/projects");
      if (opts.role !== "none" && !isRole(opts.role)) throw new WorkbenchError("INVALID_INPUT", `--role must be viewer, editor, approver, admin or none, not "${opts.role}".`);
      const project = await getProject(opts.project);
      const a = await accountByEmail(opts.email);
      if (opts.role === "none") await removeMember(project.id, a.id);
      else await setMember(project.id, a.id, opts.role as "viewer");
      stdout.line(`${a.email} on ${project.name}: ${opts.role}`);
      setCode(0);
    });
  account
    .command("bind-key <keyId>")
    .description("Bind a human signing key id (AGENT_COLLAB_HUMAN_KEYS_JSON) to the one account that may sign with it.")
    .requiredOption("--email <email>", "the approver's account")
    .action(async (keyId: string, opts: { email: string }) => {
      const { bindApproverKey } = await import("../../lib/db/repositories/accounts");
      const a = await accountByEmail(opts.email);
      await bindApproverKey(keyId, a.id);
      stdout.line(`${keyId} is bound to ${a.email}`);
      setCode(0);
    });
  account
    .command("unbind-key <keyId>")
    .description("Unbind a signing key id from its account.")
    .action(async (keyId: string) => {
      const { unbindApproverKey } = await import("../../lib/db/repositories/accounts");
      await unbindApproverKey(keyId);
      stdout.line(`${keyId} is bound to no account`);
      setCode(0);
    });
  account
    .command("token")
    .description("Issue a personal access token for an agent; prints it once.")
    .requiredOption("--email <email>", "the account the token acts as")
    .requiredOption("--name <name>", "what the token is for")
    .option("--days <n>", "days until it expires (0: never)", "90")
    .action(async (opts: { email: string; name: string; days: string }) => {
      const { createToken } = await import("../../lib/auth/accounts");
      const days = Number(opts.days);
      if (!Number.isInteger(days) || days < 0 || days > 365) throw new WorkbenchError("INVALID_INPUT", `--days must be 0-365, not "${opts.days}".`);
      const a = await accountByEmail(opts.email);
      const t = await createToken(a.id, { name: opts.name, expiresInDays: days === 0 ? null : days });
      stdout.line(t.token);
      setCode(0);
    });
}
