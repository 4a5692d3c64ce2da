import { describe, expect, it } from "vitest";
import { issueCollabToken, verifyCollabToken } from "../../../lib/auth/collab-token";

const SECRET = "k".repeat(40);

describe("co-editing tokens", () => {
  it("carry the account id and verify under the same secret only", async () => {
    const { token, expiresAt } = await issueCollabToken(SECRET, "user-1");
    expect(await verifyCollabToken(SECRET, token)).toBe("user-1");
    expect(await verifyCollabToken("x".repeat(40), token)).toBeNull();
    expect(Date.parse(expiresAt)).toBeGreaterThan(Date.now());
  });

  it("refuse expired, tampered and empty tokens", async () => {
    expect(await verifyCollabToken(SECRET, (await issueCollabToken(SECRET, "u", -1)).token)).toBeNull();
    const { token } = await issueCollabToken(SECRET, "user-1");
    const [h, p, s] = token.split(".");
    const other = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(p!, "base64url").toString()), sub: "admin" })).toString("base64url");
    expect(await verifyCollabToken(SECRET, `${h}.${other}.${s}`)).toBeNull();
    expect(await verifyCollabToken(SECRET, "")).toBeNull();
    expect(await verifyCollabToken(SECRET, "a.b.c")).toBeNull();
  });
});
