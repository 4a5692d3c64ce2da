import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ENV, envDocs, isEnvName, parseEnvValue, readEnv } from "../../../lib/core/env";
import { readAuthConfig } from "../../../lib/auth/config";
import { renderConfigSection, rewriteReadme } from "../../../scripts/docs-config";

const root = path.resolve(import.meta.dirname, "../../..");

/** Every runtime source: what the dashboard, the CLI and their scripts run. */
function runtimeFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (rel !== path.join("lib", "db", "generated")) walk(rel);
      } else if (/\.(ts|tsx|mjs|js)$/.test(e.name)) out.push(rel);
    }
  };
  for (const d of ["app", "components", "lib", "cli", "scripts", "bin"]) walk(d);
  return [...out, "proxy.ts", "next.config.js"].filter((f) => fs.existsSync(path.join(root, f)));
}

const READ = /process\.env(?:\?\.|\.)([A-Za-z_][A-Za-z0-9_]*)|process\.env\[\s*["'`]([A-Za-z_][A-Za-z0-9_]*)["'`]\s*\]/g;

function reads(file: string): string[] {
  const text = fs.readFileSync(path.join(root, file), "utf8");
  return [...text.matchAll(READ)].map((m) => (m[1] ?? m[2])!);
}

// Files that cannot import TypeScript (plain Node scripts, Next's config) read process.env
// themselves; every other file goes through lib/core/env.ts.
const PLAIN_JS = /\.(mjs|js)$/;
// The API's request helpers move to readEnv with the API contract work that owns them.
const PENDING = new Set(["app/api/v1/_lib/respond.ts"]);

describe("the environment module", () => {
  it("declares every variable any runtime file reads", () => {
    const undeclared = runtimeFiles().flatMap((f) =>
      reads(f)
        .filter((name) => !isEnvName(name))
        .map((name) => `${f}: ${name}`),
    );
    expect(undeclared).toEqual([]);
  });

  it("is the only TypeScript that reads process.env.X", () => {
    const direct = runtimeFiles()
      .filter((f) => !PLAIN_JS.test(f) && f !== path.join("lib", "core", "env.ts") && !PENDING.has(f))
      .flatMap((f) => reads(f).map((name) => `${f}: ${name}`));
    expect(direct).toEqual([]);
  });

  it("describes every variable", () => {
    for (const d of envDocs()) {
      expect(d.description, d.name).not.toBe("");
      if (d.audience !== "system") expect(d.shown, d.name).not.toBe("");
    }
  });

  it("keeps the README's configuration tables as generated from it", () => {
    const readme = fs.readFileSync(path.join(root, "README.md"), "utf8");
    expect(readme).toContain(renderConfigSection());
    expect(rewriteReadme(readme)).toBe(readme);
    // A variable the module declares for operators is in the README, with its default.
    for (const d of envDocs().filter((x) => x.audience === "operator")) expect(readme).toContain(`| \`${d.name}\` | ${d.shown} |`);
  });

  it("finds a README table that disagrees with the module", () => {
    const readme = fs.readFileSync(path.join(root, "README.md"), "utf8");
    const edited = readme.replace("| `WORKBENCH_FETCH_INTERVAL` | `300` |", "| `WORKBENCH_FETCH_INTERVAL` | `600` |");
    expect(edited).not.toBe(readme);
    expect(edited).not.toContain(renderConfigSection());
  });

  it("parses values to their types, with defaults", () => {
    expect(readEnv("PORT", {})).toBe(3000);
    expect(readEnv("PORT", { PORT: "4100" })).toBe(4100);
    expect(readEnv("WORKBENCH_MODE", {})).toBe("local");
    expect(readEnv("WORKBENCH_FETCH_INTERVAL", {})).toBe(300);
    expect(readEnv("WORKBENCH_FETCH_INTERVAL", { WORKBENCH_FETCH_INTERVAL: "0" })).toBe(0);
    expect(readEnv("WORKBENCH_COLLAB_PORT", {})).toBeUndefined();
    expect(readEnv("DATABASE_URL", { DATABASE_URL: "file:/tmp/x.db" })).toBe("file:/tmp/x.db");
  });

  it("refuses an invalid value with a message naming the variable", () => {
    expect(() => readEnv("PORT", { PORT: "eighty" })).toThrow(/^PORT: must be a port number \(1-65535\)$/);
    expect(() => readEnv("PORT", { PORT: "70000" })).toThrow(/^PORT: /);
    expect(() => parseEnvValue("WORKBENCH_FETCH_INTERVAL", "5m")).toThrow(/^WORKBENCH_FETCH_INTERVAL: must be a whole number of seconds \(0 disables\), not "5m"$/);
    expect(() => readEnv("WORKBENCH_QUERY_STATS", { WORKBENCH_QUERY_STATS: "yes" })).toThrow(/^WORKBENCH_QUERY_STATS: /);
    expect(() => readEnv("WORKBENCH_PUBLIC_URL", { WORKBENCH_PUBLIC_URL: "not a url" })).toThrow(/^WORKBENCH_PUBLIC_URL: /);
    expect(() => readAuthConfig({ WORKBENCH_MODE: "team", WORKBENCH_AUTH_SECRET: "x".repeat(32), WORKBENCH_SIGNUP: "sometimes" })).toThrow(/^WORKBENCH_SIGNUP: /);
  });

  it("lists each variable once, in upper case", () => {
    for (const name of Object.keys(ENV)) expect(name).toMatch(/^[A-Z][A-Z0-9_]*$/);
  });
});
