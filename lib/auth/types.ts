/** What the UI sees of accounts, project members and tokens (stored by lib/db, the layer below). */
export type { AccountDto, MemberDto } from "../db/repositories/accounts";
export type { TokenDto } from "../db/repositories/tokens";
