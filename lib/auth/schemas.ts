/**
 * The accounts API (team mode): who is asking, personal access tokens, accounts, approver keys
 * and project members. Pure (zod only): the browser's API client imports it.
 */
import { z } from "zod";
import { defineRoute, isoTime, pathId, projectParams } from "../core/contract";
import type { AccountDto, MemberDto } from "../db/repositories/accounts";
import type { TokenDto } from "../db/repositories/tokens";
import { ROLES } from "./roles";

export const newAccountInput = z.object({
  email: z.email().max(254).describe("sign-in email"),
  name: z.string().trim().min(1).max(80).describe("display name shown to collaborators"),
  password: z.string().min(10, "at least 10 characters").max(256).describe("initial password; the library stores only its hash"),
});

export const newTokenInput = z.object({
  name: z.string().trim().min(1, "a token needs a name").max(64).describe("what the token is for, e.g. ci-agent"),
  expiresInDays: z.number().int().min(1).max(365).nullable().default(90).describe("days until the token stops working; null: never"),
});

export const accountSchema = z
  .object({
    id: z.string().describe("account id"),
    name: z.string().describe("display name"),
    email: z.string().describe("sign-in email"),
    isAdmin: z.boolean().describe("instance administrator"),
    createdAt: isoTime("when the account was created"),
  })
  .describe("an account");

export const memberSchema = z
  .object({
    userId: z.string().describe("account id"),
    name: z.string().describe("display name"),
    email: z.string().describe("sign-in email"),
    role: z.enum(ROLES).describe("viewer, editor, approver or admin"),
    since: isoTime("when they joined the project"),
  })
  .describe("a project member");

export const tokenSchema = z
  .object({
    id: z.string().describe("token id"),
    name: z.string().describe("what the token is for"),
    start: z.string().nullable().describe("its first characters, to recognise it"),
    createdAt: isoTime("when it was created"),
    expiresAt: isoTime("when it stops working").nullable(),
    lastUsedAt: isoTime("when it was last used").nullable(),
  })
  .describe("a personal access token (never its value)");

export const createdTokenSchema = z
  .object({
    id: z.string().describe("token id"),
    name: z.string().describe("what the token is for"),
    token: z.string().describe("the token itself: shown in this response and nowhere else, ever"),
    expiresAt: isoTime("when it stops working").nullable(),
  })
  .describe("a new personal access token");

const principalSchema = z
  .object({
    kind: z.literal("user").describe("a person with an account"),
    userId: z.string().describe("account id"),
    name: z.string().describe("display name"),
    email: z.string().describe("sign-in email"),
    isAdmin: z.boolean().describe("instance administrator"),
    via: z.enum(["session", "token"]).describe("how the request authenticated"),
  })
  .describe("the signed-in account");

const bindingsSchema = z
  .array(z.object({ keyId: z.string().describe("approver key id"), userId: z.string().describe("account id"), email: z.string().describe("the account's email") }))
  .describe("which account each approver key is bound to");

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const assertSame = <T extends true>(_: T) => undefined;
assertSame<Same<z.infer<typeof accountSchema>, AccountDto>>(true);
assertSame<Same<z.infer<typeof memberSchema>, MemberDto>>(true);
assertSame<Same<z.infer<typeof tokenSchema>, TokenDto>>(true);

const tag = "accounts";
const membersOut = z.object({ members: z.array(memberSchema).describe("the project's members") });
const memberParams = projectParams.extend({ userId: pathId("account id") });
const roleInput = z.object({ role: z.enum(ROLES).describe("viewer, editor, approver or admin") });

export const accountRoutes = {
  me: defineRoute({
    id: "whoAmI",
    method: "GET",
    path: "/api/v1/me",
    tag,
    summary: "Who the request is",
    description: '`{mode:"local"}`, or the signed-in account and how it authenticated.',
    access: { kind: "signed-in" },
    response: {
      status: 200,
      description: "the caller",
      json: z.union([z.object({ mode: z.literal("local").describe("local mode: one person, no accounts") }), z.object({ mode: z.literal("team").describe("team mode"), account: principalSchema })]),
    },
  }),
  collabToken: defineRoute({
    id: "collabToken",
    method: "GET",
    path: "/api/v1/me/collab-token",
    tag,
    summary: "A short-lived token for the co-editing socket",
    description: "Team mode; `{token:null}` in local mode, where the socket needs none. The socket checks the role on each packet itself.",
    access: { kind: "signed-in" },
    response: {
      status: 200,
      description: "the token",
      json: z.object({ token: z.string().nullable().describe("the token; null in local mode"), expiresAt: isoTime("when it expires").nullable() }),
      headers: { "cache-control": "no-store (team mode)" },
    },
  }),
  tokens: defineRoute({
    id: "listTokens",
    method: "GET",
    path: "/api/v1/me/tokens",
    tag,
    summary: "Your personal access tokens (names and first characters only)",
    access: { kind: "signed-in", account: true },
    response: { status: 200, description: "the tokens", json: z.object({ tokens: z.array(tokenSchema).describe("your tokens") }) },
  }),
  createToken: defineRoute({
    id: "createToken",
    method: "POST",
    path: "/api/v1/me/tokens",
    tag,
    summary: "A new token for agents and the CLI",
    description: "Its value is in this response and nowhere else, ever. Only from a signed-in browser session, never with another token.",
    access: { kind: "signed-in", account: true },
    body: newTokenInput,
    response: { status: 201, description: "the token", json: z.object({ token: createdTokenSchema }), headers: { "cache-control": "no-store" } },
  }),
  revokeToken: defineRoute({
    id: "revokeToken",
    method: "DELETE",
    path: "/api/v1/me/tokens/{tokenId}",
    tag,
    summary: "Revoke one of your tokens",
    access: { kind: "signed-in", account: true },
    params: z.object({ tokenId: pathId("token id") }),
    response: { status: 204, description: "revoked" },
  }),
  accounts: defineRoute({
    id: "listAccounts",
    method: "GET",
    path: "/api/v1/admin/accounts",
    tag,
    summary: "Every account (instance administrators)",
    access: { kind: "signed-in", account: true, instanceAdmin: true },
    response: { status: 200, description: "the accounts", json: z.object({ accounts: z.array(accountSchema).describe("every account") }) },
  }),
  createAccount: defineRoute({
    id: "createAccount",
    method: "POST",
    path: "/api/v1/admin/accounts",
    tag,
    summary: "Create an account with an initial password",
    description: "Sign-up is closed by default in team mode; instance administrators create accounts.",
    access: { kind: "signed-in", account: true, instanceAdmin: true },
    body: newAccountInput,
    response: { status: 201, description: "the account", json: z.object({ account: accountSchema }) },
    errors: ["CONFLICT"],
  }),
  setAdmin: defineRoute({
    id: "setInstanceAdmin",
    method: "PATCH",
    path: "/api/v1/admin/accounts/{userId}",
    tag,
    summary: "Make an account an instance administrator, or not",
    access: { kind: "signed-in", account: true, instanceAdmin: true },
    params: z.object({ userId: pathId("account id") }),
    body: z.object({ isAdmin: z.boolean().describe("instance administrator or not") }),
    response: { status: 200, description: "the account", json: z.object({ account: accountSchema.nullable().describe("the account; null when it no longer exists") }) },
  }),
  approverKeys: defineRoute({
    id: "listApproverKeys",
    method: "GET",
    path: "/api/v1/admin/approver-keys",
    tag,
    summary: "Loaded approver key ids (never secrets) and the account each is bound to",
    access: { kind: "signed-in", account: true, instanceAdmin: true },
    response: {
      status: 200,
      description: "the keys and bindings",
      json: z.object({
        keyIds: z.array(z.string()).describe("key ids loaded on this server"),
        keyError: z.string().nullable().describe("why the keys could not be read; null when they could"),
        bindings: bindingsSchema,
      }),
    },
  }),
  bindApproverKey: defineRoute({
    id: "bindApproverKey",
    method: "POST",
    path: "/api/v1/admin/approver-keys",
    tag,
    summary: "Bind an approver key to an account",
    access: { kind: "signed-in", account: true, instanceAdmin: true },
    body: z.object({
      keyId: z.string().min(1).max(200).describe("a key id loaded on this server (never its secret)"),
      email: z.email().max(254).describe("the approver's account"),
    }),
    response: { status: 201, description: "the bindings", json: z.object({ bindings: bindingsSchema }) },
    errors: ["NOT_FOUND"],
  }),
  unbindApproverKey: defineRoute({
    id: "unbindApproverKey",
    method: "DELETE",
    path: "/api/v1/admin/approver-keys/{keyId}",
    tag,
    summary: "Unbind an approver key",
    access: { kind: "signed-in", account: true, instanceAdmin: true },
    params: z.object({ keyId: pathId("key id", 200) }),
    response: { status: 200, description: "the bindings left", json: z.object({ bindings: bindingsSchema }) },
  }),
  members: defineRoute({
    id: "listMembers",
    method: "GET",
    path: "/api/v1/projects/{id}/members",
    tag,
    summary: "Who is on the project and in which role",
    access: { kind: "project", role: "viewer", account: true },
    params: projectParams,
    response: { status: 200, description: "the members", json: membersOut },
  }),
  addMember: defineRoute({
    id: "addMember",
    method: "POST",
    path: "/api/v1/projects/{id}/members",
    tag,
    summary: "Add an account to the project, or change its role",
    access: { kind: "project", role: "admin", account: true },
    params: projectParams,
    body: z.object({ email: z.email().max(254).describe("the account's sign-in email"), role: roleInput.shape.role }),
    response: { status: 201, description: "the members", json: membersOut },
    errors: ["NOT_FOUND"],
  }),
  setMemberRole: defineRoute({
    id: "setMemberRole",
    method: "PATCH",
    path: "/api/v1/projects/{id}/members/{userId}",
    tag,
    summary: "Change a member's role",
    access: { kind: "project", role: "admin", account: true },
    params: memberParams,
    body: roleInput,
    response: { status: 200, description: "the members", json: membersOut },
    errors: ["NOT_FOUND"],
  }),
  removeMember: defineRoute({
    id: "removeMember",
    method: "DELETE",
    path: "/api/v1/projects/{id}/members/{userId}",
    tag,
    summary: "Remove a member from the project",
    access: { kind: "project", role: "admin", account: true },
    params: memberParams,
    response: { status: 200, description: "the members left", json: membersOut },
  }),
};
