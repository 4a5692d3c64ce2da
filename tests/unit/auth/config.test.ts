import { describe, expect, it } from "vitest";
import { isLoopbackHost, readAuthConfig } from "../../../lib/auth/config";
import { roleAtLeast, ROLES } from "../../../lib/auth/roles";

const SECRET = "s".repeat(32);

describe("readAuthConfig", () => {
  it("is local mode by default", () => {
    expect(readAuthConfig({})).toEqual({ mode: "local" });
  });

  it("refuses team mode without a secret of at least 32 characters", () => {
    expect(() => readAuthConfig({ WORKBENCH_MODE: "team" })).toThrow(/WORKBENCH_AUTH_SECRET: team mode needs a secret/);
    expect(() => readAuthConfig({ WORKBENCH_MODE: "team", WORKBENCH_AUTH_SECRET: "short" })).toThrow(/WORKBENCH_AUTH_SECRET: must be at least 32 characters/);
  });

  it("refuses an unknown mode, naming the variable", () => {
    expect(() => readAuthConfig({ WORKBENCH_MODE: "public" })).toThrow(/^WORKBENCH_MODE: /);
  });

  it("reads team mode with closed sign-up and no OIDC by default", () => {
    expect(readAuthConfig({ WORKBENCH_MODE: "team", WORKBENCH_AUTH_SECRET: SECRET })).toEqual({ mode: "team", secret: SECRET, publicUrl: undefined, signup: "closed", oidc: null });
  });

  it("configures OIDC only with issuer, client id and secret together", () => {
    const base = { WORKBENCH_MODE: "team", WORKBENCH_AUTH_SECRET: SECRET };
    expect(() => readAuthConfig({ ...base, WORKBENCH_OIDC_ISSUER: "https://login.example.com" })).toThrow(/go together/);
    const c = readAuthConfig({ ...base, WORKBENCH_OIDC_ISSUER: "https://login.example.com/", WORKBENCH_OIDC_CLIENT_ID: "wb", WORKBENCH_OIDC_CLIENT_SECRET: "x" });
    expect(c.mode === "team" && c.oidc).toEqual({
      issuer: "https://login.example.com/",
      discoveryUrl: "https://login.example.com/.well-known/openid-configuration",
      clientId: "wb",
      clientSecret: "x",
      name: "Single sign-on",
    });
  });
});

describe("isLoopbackHost", () => {
  it("accepts loopback names and addresses only", () => {
    for (const h of ["127.0.0.1", "localhost", "::1", "127.4.5.6"]) expect(isLoopbackHost(h), h).toBe(true);
    for (const h of ["0.0.0.0", "::", "192.168.1.2", "example.com", "127.0.0.1.example.com"]) expect(isLoopbackHost(h), h).toBe(false);
  });
});

describe("roles", () => {
  it("orders viewer < editor < approver < admin", () => {
    expect(ROLES).toEqual(["viewer", "editor", "approver", "admin"]);
    expect(roleAtLeast("approver", "editor")).toBe(true);
    expect(roleAtLeast("editor", "approver")).toBe(false);
    expect(roleAtLeast("admin", "admin")).toBe(true);
    expect(roleAtLeast("viewer", "editor")).toBe(false);
  });
});
