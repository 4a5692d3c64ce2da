import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCli, cliBuildIsCurrent } from "../../../scripts/build-cli.mjs";
import { FIXTURE_SPEC } from "../deep-context/convergence/graph-builder";

const root = path.resolve(import.meta.dirname, "../../..");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "wb-compiled-cli-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function workbench(env: Record<string, string>, ...args: string[]) {
  return spawnSync(process.execPath, [path.join(root, "bin/workbench.cjs"), ...args], {
    encoding: "utf8",
    timeout: 60_000,
    env: { ...process.env, ...env },
  });
}

describe("compiled CLI (dist/cli)", () => {
  beforeAll(async () => {
    if (!cliBuildIsCurrent()) await buildCli();
  }, 60_000);

  it("records every first-party source it was built from", () => {
    const { inputs } = JSON.parse(fs.readFileSync(path.join(root, "dist/cli/inputs.json"), "utf8")) as { inputs: string[] };
    expect(inputs).toContain("cli/main.ts");
    expect(inputs).toContain("lib/deep-context/reducer/reduce.ts");
    // Also a node_modules that links to another checkout's (../main/node_modules/… in a worktree).
    expect(inputs.some((f) => /(^|\/)node_modules\//.test(f))).toBe(false);
    expect(cliBuildIsCurrent()).toBe(true);
  });

  it("prints what the TypeScript sources print for converge and reduce", () => {
    for (const args of [["converge", FIXTURE_SPEC, "--json"], ["--help"], ["pack", "validate", "--help"], ["serve", "--help"]]) {
      const compiled = workbench({}, ...args);
      const source = workbench({ WORKBENCH_CLI_FROM_SOURCE: "1" }, ...args);
      expect(compiled.status).toBe(source.status);
      expect(compiled.stdout).toBe(source.stdout);
      expect(compiled.stdout.length).toBeGreaterThan(100);
    }
    const spec = path.join(tmp, "spec");
    fs.cpSync(FIXTURE_SPEC, spec, { recursive: true });
    const compiled = workbench({}, "reduce", spec);
    const registry = fs.readFileSync(path.join(spec, "context/findings-registry.json"), "utf8");
    const source = workbench({ WORKBENCH_CLI_FROM_SOURCE: "1" }, "reduce", spec);
    expect(compiled.status).toBe(0);
    expect(JSON.parse(compiled.stdout)).toEqual(JSON.parse(source.stdout));
    expect(fs.readFileSync(path.join(spec, "context/findings-registry.json"), "utf8")).toBe(registry);
  });

  it("starts reduce from its own entry, without commander, with the same usage, errors and help", () => {
    // A module hook that reports when anything resolves commander, or the module that bundles it (dist/cli/main.js),
    // and any other module of the build that goes through the ESM loader.
    const hook =
      'export async function resolve(s, c, n) { if (s === "commander" || /\\/cli\\/main\\.(js|ts)$/.test(s)) (await import("node:fs")).writeSync(2, "LOADED commander\\n"); else if (/\\/dist\\/cli\\//.test(s)) (await import("node:fs")).writeSync(2, "ESM " + s + "\\n"); return n(s, c); }';
    const register = `import { register } from "node:module"; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hook)}`)});`;
    const traced = (...args: string[]) =>
      spawnSync(process.execPath, ["--import", `data:text/javascript,${encodeURIComponent(register)}`, path.join(root, "bin/workbench.cjs"), ...args], { encoding: "utf8", timeout: 60_000 });
    const usage = traced("reduce", "--unknown-flag");
    expect([usage.status, usage.stderr]).toEqual([1, "Usage: workbench reduce <spec-folder>\n"]);
    const refused = traced("reduce", path.join(tmp, "a;b"));
    expect(refused.status).toBe(3);
    expect(refused.stderr).toContain("[deep-context] reducer failed: resolveArtifactRoot: specFolder contains forbidden shell metacharacter(s)");
    expect(refused.stderr).not.toContain("LOADED commander");
    // One CommonJS file, required: nothing of the build goes through the ESM loader.
    expect(refused.stderr).not.toContain("ESM ");
    const { entries } = JSON.parse(fs.readFileSync(path.join(root, "dist/cli/inputs.json"), "utf8")) as { entries: Record<string, { file?: string; format?: string }> };
    expect(entries["reduce-main"]).toMatchObject({ file: "reduce-main.cjs", format: "cjs" });
    const help = traced("reduce", "--help");
    expect(help.status).toBe(0);
    expect(help.stdout).toContain("Usage: workbench reduce [options] [spec-folder]");
    // Printed as the build rendered it (stdout is not a terminal): no commander either.
    expect(help.stderr).not.toContain("LOADED commander");
    expect(traced("--version").stderr).toContain("LOADED commander");
  });
});
