/** The browser's API client: URL from the contract, JSON body, replies parsed with the response schema, refusals as ApiError. */
import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError, apiUrl, callApi } from "../../../lib/api/client";
import { packetRoutes } from "../../../lib/packets/schemas";
import { runRoutes } from "../../../lib/deep-context/schemas";

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
const evidence = { check: { status: "verified", file: "src/a.ts", line: 3, lineText: "export const a = 1;", symbolFound: true, reason: "the line holds the symbol" } };

afterEach(() => vi.unstubAllGlobals());

describe("callApi", () => {
  it("builds the URL from path parameters and query, leaving undefined values out", () => {
    expect(apiUrl(runRoutes.evidence, { id: "p/1" }, { path: "src/a b.ts", symbol: undefined, evidence: "src/a.ts:3" })).toBe("/api/v1/projects/p%2F1/evidence?path=src%2Fa+b.ts&evidence=src%2Fa.ts%3A3");
    expect(() => apiUrl(runRoutes.evidence, {})).toThrow(ApiError);
  });

  it("sends the body as JSON and returns the reply parsed by the response schema", async () => {
    const fetch = vi.fn(async () => json(evidence));
    vi.stubGlobal("fetch", fetch);
    const out = await callApi(runRoutes.evidence, { params: { id: "p1" }, query: { path: "src/a.ts" } });
    expect(out.check.status).toBe("verified");
    expect(fetch).toHaveBeenCalledWith("/api/v1/projects/p1/evidence?path=src%2Fa.ts", expect.objectContaining({ method: "GET" }));

    const dup = vi.fn(async (_url: string, _init: RequestInit) => json({ error: { code: "NOT_FOUND", message: "No packet x." } }, 404));
    vi.stubGlobal("fetch", dup);
    const refused = callApi(packetRoutes.duplicate, { params: { id: "p1", packetId: "x" }, body: { author: "Ana" } });
    await expect(refused).rejects.toMatchObject({ name: "ApiError", code: "NOT_FOUND", message: "No packet x.", status: 404 });
    const [, init] = dup.mock.calls[0]!;
    expect(init).toMatchObject({ method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ author: "Ana" }) });
  });

  it("refuses a reply that breaks the contract, and says the status when the server gave no error body", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => json({ check: { status: "maybe" } })),
    );
    await expect(callApi(runRoutes.evidence, { params: { id: "p1" } })).rejects.toMatchObject({ code: "BAD_REPLY" });
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => new Response("<html>bad gateway</html>", { status: 502 })),
    );
    await expect(callApi(runRoutes.evidence, { params: { id: "p1" } })).rejects.toMatchObject({ code: "HTTP_502", message: "The server answered 502.", status: 502 });
  });
});
