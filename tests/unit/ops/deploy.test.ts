import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { REPO_ROOT } from "../../helpers/project-builder";

const read = (rel: string) => fs.readFileSync(path.join(REPO_ROOT, rel), "utf8");

interface Service {
  image?: string;
  build?: { context: string; dockerfile: string };
  environment?: Record<string, string>;
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
  volumes?: string[];
}

const compose = parse(read("deploy/compose.yaml"), { merge: true }) as { services: Record<string, Service> };
const services = compose.services;
const apps = Object.entries(services).filter(([, s]) => s.build);

/** Variable names in the first column of the README's Configuration table. */
function documentedVariables(): Set<string> {
  const readme = read("README.md");
  const section = readme.slice(readme.indexOf("## Configuration"));
  const table = section.slice(0, section.indexOf("\n## ", 1));
  const names = new Set<string>();
  for (const line of table.split("\n").filter((l) => l.startsWith("| `"))) {
    for (const m of (line.split("|")[1] ?? "").matchAll(/`([A-Z][A-Z0-9_]*)`/g)) names.add(m[1]!);
  }
  return names;
}

describe("deploy/compose.yaml", () => {
  it("runs two Workbench instances on postgres:15 and redis:7, each with a healthcheck", () => {
    expect(services.postgres?.image).toBe("postgres:15");
    expect(services.redis?.image).toBe("redis:7");
    expect(apps.map(([name]) => name)).toEqual(["app1", "app2"]);
    for (const name of ["postgres", "redis"]) expect(services[name]?.healthcheck?.test.length).toBeGreaterThan(0);
    for (const [, app] of apps) {
      expect(app.build).toEqual({ context: "..", dockerfile: "deploy/Dockerfile" });
      expect(app.environment?.DATABASE_URL).toMatch(/^postgresql:\/\/[^@]+@postgres:5432\//);
      expect(app.environment?.REDIS_URL).toBe("redis://redis:6379");
      expect(app.environment?.HOST).toBe("0.0.0.0");
      expect(app.healthcheck?.test.join(" ")).toContain(`http://127.0.0.1:${app.environment?.PORT}/api/ready`);
      expect(app.volumes).toContain("./projects:/projects");
    }
    // Each instance keeps its own data folder.
    expect(new Set(apps.map(([, a]) => a.volumes?.find((v) => v.endsWith(":/data")))).size).toBe(2);
    expect(services.app2?.depends_on?.app1).toEqual({ condition: "service_healthy" });
  });

  it("the proxy sends traffic only to ready instances, on both the dashboard and the co-editing port", () => {
    const caddy = read("deploy/Caddyfile");
    expect(caddy.match(/health_uri \/api\/ready/g)).toHaveLength(2);
    for (const port of ["3000", "3001"]) expect(caddy).toContain(`reverse_proxy app1:${port} app2:${port}`);
  });

  it("every variable the deployment sets is documented in the README's Configuration table", () => {
    const documented = documentedVariables();
    const used = new Set(apps.flatMap(([, a]) => Object.keys(a.environment ?? {})));
    const dockerfile = read("deploy/Dockerfile");
    for (const m of dockerfile.matchAll(/^ENV (.+)$/gm)) for (const kv of m[1]!.split(/\s+/)) used.add(kv.split("=")[0]!);
    used.delete("NODE_ENV");
    expect([...used].filter((v) => !documented.has(v))).toEqual([]);
  });

  it("the image is node:20-bookworm-slim and starts `workbench serve`", () => {
    const dockerfile = read("deploy/Dockerfile");
    expect(dockerfile.match(/^FROM (\S+)/gm)?.every((l) => l.endsWith("node:20-bookworm-slim") || l.includes("node:20-bookworm-slim AS"))).toBe(true);
    expect(dockerfile).toMatch(/^RUN npm ci$/m);
    expect(dockerfile).toMatch(/^CMD \["node", "bin\/workbench\.cjs", "serve"\]$/m);
  });
});
