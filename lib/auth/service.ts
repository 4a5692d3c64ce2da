/**
 * Accounts, members, approver-key bindings and personal access tokens as the pages read them.
 * Creating accounts and tokens goes through the auth library (accounts.ts).
 */
export { approverKeysOf, countAccounts, listAccounts, listApproverKeyBindings, listMembers } from "../db/repositories/accounts";
export { listTokens } from "../db/repositories/tokens";
export { bindApproverKey, findAccountByEmail, getAccount, projectRole, removeMember, setInstanceAdmin, setMember, unbindApproverKey } from "../db/repositories/accounts";
export { revokeToken } from "../db/repositories/tokens";
