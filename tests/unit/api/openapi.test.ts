/**
 * The OpenAPI document against the routes that exist: every exported HTTP method of every
 * app/api/**\/route.ts is an operation of the document, and every operation has its route file.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openApiDocument, type JsonSchema } from "../../../lib/api/openapi";
import { API_ROUTES } from "../../../lib/api/routes";
import { HTTP_METHODS } from "../../../lib/core/contract";
import { REPO_ROOT } from "../../helpers/project-builder";

const API = path.join(REPO_ROOT, "app", "api");
/** Routes the Workbench does not define itself: the auth library answers under /api/auth (its own endpoints, allow-listed in the file). */
const NOT_OURS = new Set(["/api/auth/{...all}"]);

function routeFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name.startsWith("_") ? [] : routeFiles(p);
    return e.name === "route.ts" ? [p] : [];
  });
}

/** `app/api/v1/projects/[id]/route.ts` → `/api/v1/projects/{id}`. */
const urlPath = (file: string) =>
  "/" +
  path
    .relative(path.join(REPO_ROOT, "app"), path.dirname(file))
    .split(path.sep)
    .join("/")
    .replace(/\[([^\]]+)\]/g, "{$1}");

/** The HTTP methods a route file exports, read from its source (importing every route would load the database layer). */
function exportedMethods(file: string): string[] {
  const src = fs.readFileSync(file, "utf8");
  return HTTP_METHODS.filter((m) => new RegExp(`export\\s+(const|async\\s+function|function)\\s+${m}\\b`).test(src));
}

describe("the OpenAPI document", () => {
  const doc = openApiDocument();
  const documented = new Set(Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`)));
  const files = routeFiles(API);
  const served = new Set(files.filter((f) => !NOT_OURS.has(urlPath(f))).flatMap((f) => exportedMethods(f).map((m) => `${m} ${urlPath(f)}`)));

  it("finds the routes", () => {
    expect(files.length).toBeGreaterThan(50);
    expect(served.size).toBeGreaterThan(70);
  });

  it("documents every method every route file exports", () => {
    expect([...served].filter((op) => !documented.has(op)).sort()).toEqual([]);
  });

  it("documents no operation that no route file serves", () => {
    expect([...documented].filter((op) => !served.has(op)).sort()).toEqual([]);
  });

  it("is OpenAPI 3.1 with unique operation ids, each route declared once", () => {
    expect(doc.openapi).toBe("3.1.0");
    const ids = API_ROUTES.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(documented.size).toBe(API_ROUTES.length);
    // Serializes to JSON as served.
    expect(JSON.parse(JSON.stringify(doc))).toEqual(doc);
  });

  it("shows the bounds a field declares, not zod's implicit safe-integer ones", () => {
    const text = JSON.stringify(openApiDocument());
    expect(text).not.toContain(String(Number.MAX_SAFE_INTEGER));
    expect(text).not.toContain(String(Number.MIN_SAFE_INTEGER));
    // A declared bound survives: a page number starts at 1.
    expect(text).toMatch(/"type":"integer","minimum":1\b/);
  });

  it("describes every parameter and every field of every request body", () => {
    const missing: string[] = [];
    // A nullable field carries its description on the non-null alternative.
    const described = (p: JsonSchema): boolean => (typeof p.description === "string" && p.description !== "") || ((p.anyOf ?? []) as JsonSchema[]).some(described);
    const walk = (s: JsonSchema, where: string) => {
      for (const [name, p] of Object.entries((s.properties ?? {}) as Record<string, JsonSchema>)) if (!described(p)) missing.push(`${where}.${name}`);
    };
    for (const [p, ops] of Object.entries(doc.paths)) {
      for (const [m, op] of Object.entries(ops)) {
        for (const param of op.parameters) if (!param.description) missing.push(`${m} ${p} ${param.in} ${param.name}`);
        if (op.requestBody) walk(op.requestBody.content["application/json"].schema, `${m} ${p} body`);
        const ok = Object.entries(op.responses).find(([status]) => Number(status) < 300)?.[1];
        const json = ok?.content?.["application/json"]?.schema;
        if (json) walk(json, `${m} ${p} response`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("documents the error body on every operation, and no credentials on the public probes only", () => {
    for (const ops of Object.values(doc.paths)) {
      for (const op of Object.values(ops)) {
        expect(op.responses["500"]?.content?.["application/json"]?.schema).toEqual({ $ref: "#/components/schemas/Error" });
      }
    }
    expect(doc.paths["/api/health"]!.get!.security).toEqual([]);
    expect(doc.paths["/api/v1/projects"]!.get!.security).toBeUndefined();
    expect(doc.paths["/api/v1/projects"]!.get!.responses["401"]).toBeDefined();
  });

  it("documents the handoff URL's answer for a packet not emitted yet: 409 NOT_EMITTED, apart from 404 (issue 30)", () => {
    const handoff = doc.paths["/api/v1/packets/{packetId}"]!.get!;
    expect(handoff.responses["409"]?.description).toBe("NOT_EMITTED");
    expect(handoff.responses["404"]?.description).toBe("NOT_FOUND");
    expect(handoff.description).toContain("approval alone does not emit it");
  });
});
