import { describe, expect, it } from "vitest";
import { refuseCrossSiteWrite } from "../../../lib/auth/same-origin";

const req = (method: string, headers: Record<string, string>) => new Request("http://127.0.0.1:3000/api/v1/projects", { method, headers });

describe("refuseCrossSiteWrite", () => {
  it("lets reads, same-origin writes and header-less clients (agents, curl) through", () => {
    expect(() => refuseCrossSiteWrite(req("GET", { origin: "https://evil.example" }))).not.toThrow();
    expect(() => refuseCrossSiteWrite(req("POST", { origin: "http://127.0.0.1:3000", "sec-fetch-site": "same-origin" }))).not.toThrow();
    expect(() => refuseCrossSiteWrite(req("DELETE", {}))).not.toThrow();
  });

  it("refuses writes from another origin or marked cross-site", () => {
    expect(() => refuseCrossSiteWrite(req("POST", { origin: "https://evil.example" }))).toThrow(/another site/);
    expect(() => refuseCrossSiteWrite(req("PATCH", { origin: "null" }))).toThrow(/another site/);
    expect(() => refuseCrossSiteWrite(req("DELETE", { "sec-fetch-site": "cross-site" }))).toThrow(/another site/);
    expect(() => refuseCrossSiteWrite(req("POST", { origin: "http://127.0.0.1:3001" }))).toThrow(/another site/);
  });

  it("trusts the proxy's forwarded origin and the configured public URL", () => {
    expect(() => refuseCrossSiteWrite(req("POST", { origin: "https://wb.example.com", "x-forwarded-host": "wb.example.com", "x-forwarded-proto": "https" }))).not.toThrow();
    expect(() => refuseCrossSiteWrite(req("POST", { origin: "https://wb.example.com" }), "https://wb.example.com/")).not.toThrow();
  });
});
