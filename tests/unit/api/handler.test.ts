/**
 * The route handler builder: input parsed with the contract's schemas, the one error body with
 * the code's status, no stack ever in a reply, and replies checked against the response schema
 * outside production. Public contracts keep the database out of it.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { handle, reply } from "../../../app/api/v1/_lib/handler";
import { defineRoute } from "../../../lib/core/contract";
import { WorkbenchError } from "../../../lib/core/errors";

const thing = defineRoute({
  id: "testThing",
  method: "POST",
  path: "/api/test/{n}",
  tag: "test",
  summary: "a route for the test",
  access: { kind: "public" },
  params: z.object({ n: z.coerce.number().int().min(1).describe("a positive number") }),
  query: z.object({ twice: z.enum(["0", "1"]).default("0").describe("1 doubles it") }),
  body: z.object({ name: z.string().min(1).describe("a name") }),
  response: { status: 201, description: "the thing", json: z.object({ n: z.number().describe("the number"), name: z.string().describe("the name") }) },
});

const call = (h: ReturnType<typeof handle>, n: string, init: { body?: string; query?: string; type?: string } = {}) =>
  h(
    new Request(`http://127.0.0.1/api/test/${n}${init.query ?? ""}`, {
      method: "POST",
      headers: { "content-type": init.type ?? "application/json" },
      body: init.body ?? JSON.stringify({ name: "Ana" }),
    }),
    { params: Promise.resolve({ n }) },
  );

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

describe("handle", () => {
  it("parses params, query and body with the contract and answers with its status", async () => {
    const h = handle(thing, async ({ params, query, body }) => ({ n: query.twice === "1" ? params.n * 2 : params.n, name: body.name }));
    const res = await call(h, "21", { query: "?twice=1" });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ n: 42, name: "Ana" });
  });

  it("answers bad params, query or body with 400 and the error body naming the field", async () => {
    const h = handle(thing, async () => ({ n: 1, name: "x" }));
    for (const [res, field] of [
      [await call(h, "0"), "n"],
      [await call(h, "1", { query: "?twice=2" }), "twice"],
      [await call(h, "1", { body: JSON.stringify({ name: "" }) }), "name"],
    ] as const) {
      expect(res.status).toBe(400);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body).toEqual({ error: { code: "INVALID_INPUT", message: expect.stringMatching(new RegExp(`^${field}: `)) } });
    }
    const notJson = await call(h, "1", { type: "text/plain" });
    expect(notJson.status).toBe(400);
    expect((await notJson.json()).error.message).toMatch(/must be JSON/);
  });

  it("maps a WorkbenchError to its status, and anything else to 500 without a stack", async () => {
    const refused = handle(thing, async () => {
      throw new WorkbenchError("CONFLICT", "Someone saved meanwhile.");
    });
    const r409 = await call(refused, "1");
    expect(r409.status).toBe(409);
    expect(await r409.json()).toEqual({ error: { code: "CONFLICT", message: "Someone saved meanwhile." } });

    const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const broken = handle(thing, async () => {
      throw new Error("secret detail at /srv/app/lib/x.ts:12");
    });
    const r500 = await call(broken, "1");
    expect(r500.status).toBe(500);
    const text = await r500.text();
    expect(JSON.parse(text)).toEqual({ error: { code: "INTERNAL", message: "Something went wrong on the server." } });
    expect(text).not.toMatch(/secret|\/srv\/|at /);
    expect(log).toHaveBeenCalled();
  });

  it("catches a reply that breaks the response schema outside production, and lets it through in production", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const wrong = handle(thing, async () => ({ n: "one", name: "Ana" }) as unknown as { n: number; name: string });
    const res = await call(wrong, "1");
    expect(res.status).toBe(500);
    expect((await res.json()).error.code).toBe("INTERNAL");
    expect(JSON.stringify(log.mock.calls)).toMatch(/does not match the response schema/);

    vi.stubEnv("NODE_ENV", "production");
    const prod = await call(wrong, "1");
    expect(prod.status).toBe(201);
  });

  it("passes a ready Response through (markdown, streams) and sets a Reply's status and headers", async () => {
    const md = handle(thing, async () => new Response("# hi", { headers: { "content-type": "text/markdown" } }));
    const r = await call(md, "1");
    expect(r.headers.get("content-type")).toBe("text/markdown");
    expect(await r.text()).toBe("# hi");
    const custom = handle(thing, async () => reply({ n: 1, name: "x" }, { status: 202, headers: { "cache-control": "no-store" } }));
    const c = await call(custom, "1");
    expect(c.status).toBe(202);
    expect(c.headers.get("cache-control")).toBe("no-store");
  });

  it("answers 204 with no body when the contract says so", async () => {
    const gone = handle(defineRoute({ ...thing, body: undefined, response: { status: 204, description: "gone" } }), async () => undefined);
    const res = await gone(new Request("http://127.0.0.1/api/test/1", { method: "POST" }), { params: Promise.resolve({ n: "1" }) });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe("");
  });
});
