import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { resolveLayout, resolveLayouts, type ResolvedLayout } from "../../../lib/core/config";
import { ProjectFs } from "../../../lib/core/project-fs";
import type { FileWarning } from "../../../lib/core/warnings";
import { planScan } from "../../../lib/inventory/scan";
import { FIXTURES, ProjectBuilder, copySampleProject, makeTempDir, removeTempDirs } from "../../helpers/project-builder";

afterAll(removeTempDirs);

async function layoutsOf(b: ProjectBuilder | string): Promise<{ layouts: ResolvedLayout[]; warnings: FileWarning[] }> {
  const warnings: FileWarning[] = [];
  const pfs = await ProjectFs.open(typeof b === "string" ? b : b.root);
  const layouts = await resolveLayouts(pfs, (w) => warnings.push(w));
  return { layouts, warnings };
}

const paths = (l: ResolvedLayout) => Object.fromEntries(Object.values(l.artifacts).map((a) => [a.name, a.relPath]));

describe("resolveLayout: defaults", () => {
  it("uses the seed's defaults when there is no configuration.yml", async () => {
    const { layouts, warnings } = await layoutsOf(new ProjectBuilder().dir(".claude/work"));
    expect(warnings).toEqual([]);
    expect(layouts).toHaveLength(1);
    const l = layouts[0]!;
    expect(l.agentDir).toBe(".claude");
    expect(l.configPath).toBeNull();
    expect(paths(l)).toEqual({
      work: ".claude/work",
      brainstorms: ".claude/brainstorm",
      proposals: ".claude/proposals",
      refactoring: ".claude/work/refactoring-sessions",
      requirements: null,
      "product-knowledge": null,
    });
    expect(Object.values(l.artifacts).every((a) => a.configured === false && a.storageType === "directory")).toBe(true);
  });

  it("falls back to .claude when no agent folder exists at all", async () => {
    const { layouts } = await layoutsOf(new ProjectBuilder().file("README.md", "x"));
    expect(layouts.map((l) => l.agentDir)).toEqual([".claude"]);
  });

  it("an empty configuration.yml means defaults, without a warning", async () => {
    const { layouts, warnings } = await layoutsOf(new ProjectBuilder().config(""));
    expect(warnings).toEqual([]);
    expect(layouts[0]!.configPath).toBe(".claude/configuration.yml");
    expect(layouts[0]!.artifacts.work.relPath).toBe(".claude/work");
  });

  it("a configuration without storage (execution_mode only) keeps every default", async () => {
    const { layouts, warnings } = await layoutsOf(new ProjectBuilder().config("execution_mode: team\n"));
    expect(warnings).toEqual([]);
    expect(paths(layouts[0]!).proposals).toBe(".claude/proposals");
    expect(layouts[0]!.artifacts.requirements.configured).toBe(false);
  });

  it("missing keys fall back one by one", async () => {
    const { layouts } = await layoutsOf(new ProjectBuilder().config("storage:\n  locations:\n    l: {type: directory, path: agent-state}\n  artifacts:\n    work: {location: l, subdir: sessions}\n"));
    const l = layouts[0]!;
    expect(l.artifacts.work).toEqual({ name: "work", relPath: "agent-state/sessions", storageType: "directory", configured: true });
    expect(l.artifacts.brainstorms.relPath).toBe(".claude/brainstorm");
    expect(l.artifacts.brainstorms.configured).toBe(false);
  });
});

describe("resolveLayout: the sample project's configuration.yml", () => {
  it("resolves all six artifacts from the two directory locations", async () => {
    const { layouts, warnings } = await layoutsOf(copySampleProject());
    expect(warnings).toEqual([]);
    const claude = layouts.find((l) => l.agentDir === ".claude")!;
    expect(claude.configPath).toBe(".claude/configuration.yml");
    expect(paths(claude)).toEqual({
      work: ".claude/work",
      brainstorms: ".claude/brainstorm",
      proposals: ".claude/proposals",
      refactoring: ".claude/work/refactoring-sessions",
      requirements: "knowledge/requirements",
      "product-knowledge": "knowledge/product",
    });
    expect(Object.values(claude.artifacts).every((a) => a.configured && a.storageType === "directory")).toBe(true);
  });

  it("plans to read the requirements KB and product knowledge because they are configured and exist", async () => {
    const root = copySampleProject();
    const pfs = await ProjectFs.open(root);
    const plan = await planScan(pfs, () => undefined);
    expect(plan.requirementsDirs).toEqual(["knowledge/requirements"]);
    expect(plan.productDirs).toEqual(["knowledge/product"]);
  });
});

describe("resolveLayout: unsafe and broken configuration", () => {
  it("a location outside the project root is refused with outside_root and not read", async () => {
    const outside = makeTempDir("wb-outside-");
    fs.mkdirSync(path.join(outside, "work", "LEAK-1"), { recursive: true });
    fs.writeFileSync(path.join(outside, "work", "LEAK-1", "state.json"), '{"title":"leaked"}');
    const b = new ProjectBuilder().config(
      [
        "storage:",
        "  locations:",
        `    shared: {type: git, path: ${JSON.stringify(outside)}}`,
        "    up: {type: directory, path: ../elsewhere}",
        "    local: {type: directory, path: .claude}",
        "  artifacts:",
        "    work: {location: shared, subdir: work}",
        "    requirements: {location: up, subdir: requirements}",
        "    proposals: {location: local, subdir: ../../escape}",
        "    brainstorms: {location: local, subdir: brainstorm}",
        "",
      ].join("\n"),
    );
    const { layouts, warnings } = await layoutsOf(b);
    const l = layouts[0]!;
    expect(l.artifacts.work).toMatchObject({ relPath: null, configured: false, storageType: "git" });
    expect(l.artifacts.requirements).toMatchObject({ relPath: null, configured: false });
    expect(l.artifacts.proposals).toMatchObject({ relPath: null, configured: false });
    expect(l.artifacts.brainstorms).toMatchObject({ relPath: ".claude/brainstorm", configured: true });
    const outsideWarnings = warnings.filter((w) => w.code === "outside_root");
    expect(outsideWarnings.map((w) => w.field).sort()).toEqual(["storage.artifacts.proposals", "storage.artifacts.requirements", "storage.artifacts.work"]);
    expect(outsideWarnings.every((w) => w.relPath === ".claude/configuration.yml")).toBe(true);

    const pfs = await ProjectFs.open(b.root);
    const plan = await planScan(pfs, () => undefined);
    expect(plan.roots.some((r) => r.source === "work")).toBe(false);
    expect(plan.requirementsDirs).toEqual([]);
  });

  it("the nexus template configuration (absolute team-knowledge path) warns for its three outside artifacts", async () => {
    const b = new ProjectBuilder().file(".claude/configuration.yml", fs.readFileSync(path.join(FIXTURES, "claude-skills", "configuration.yml"), "utf8"));
    const { layouts, warnings } = await layoutsOf(b);
    const l = layouts[0]!;
    expect(
      warnings
        .filter((w) => w.code === "outside_root")
        .map((w) => w.field)
        .sort(),
    ).toEqual(["storage.artifacts.product-knowledge", "storage.artifacts.proposals", "storage.artifacts.requirements"]);
    expect(paths(l)).toMatchObject({ work: ".claude/work", brainstorms: ".claude/brainstorm", refactoring: ".claude/work/refactoring-sessions", proposals: null });
  });

  it("corrupt YAML gives a corrupt_yaml warning naming the file, and the defaults", async () => {
    const { layouts, warnings } = await layoutsOf(new ProjectBuilder().config("storage:\n  locations: [unclosed\n  artifacts: {\n"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ relPath: ".claude/configuration.yml", code: "corrupt_yaml" });
    expect(warnings[0]!.message).toContain(".claude/configuration.yml");
    expect(warnings[0]!.message).toMatch(/using defaults/);
    expect(paths(layouts[0]!)).toMatchObject({ work: ".claude/work", proposals: ".claude/proposals", requirements: null });
  });

  it("an artifact naming an unknown location warns with the dotted field and uses the default", async () => {
    const { layouts, warnings } = await layoutsOf(new ProjectBuilder().config("storage:\n  locations:\n    local: {type: directory, path: .claude}\n  artifacts:\n    work: {location: nowhere, subdir: work}\n"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ relPath: ".claude/configuration.yml", field: "storage.artifacts.work.location", code: "invalid_field" });
    expect(warnings[0]!.message).toContain('"nowhere"');
    expect(layouts[0]!.artifacts.work).toMatchObject({ relPath: ".claude/work", configured: false });
  });

  it("one bad location type is dropped with one warning; the rest of the configuration still applies", async () => {
    const { layouts, warnings } = await layoutsOf(
      new ProjectBuilder().config(
        ["storage:", "  locations:", "    cloud: {type: s3, path: bucket}", "    knowledge: {type: directory, path: knowledge}", "  artifacts:", "    requirements: {location: knowledge, subdir: requirements}", ""].join(
          "\n",
        ),
      ),
    );
    expect(layouts[0]!.artifacts.requirements).toMatchObject({ relPath: "knowledge/requirements", configured: true });
    const invalid = warnings.filter((w) => w.code === "invalid_field");
    expect(invalid.length).toBeGreaterThanOrEqual(1);
    expect(invalid.length).toBeLessThanOrEqual(2);
    expect(invalid[0]!.field).toBe("storage.locations.cloud.type");
  });

  it("subdir '.' means the location's own folder", async () => {
    const { layouts } = await layoutsOf(new ProjectBuilder().config("storage:\n  locations:\n    kb: {type: directory, path: docs/product/}\n  artifacts:\n    product-knowledge: {location: kb, subdir: .}\n"));
    expect(layouts[0]!.artifacts["product-knowledge"]).toMatchObject({ relPath: "docs/product", configured: true });
  });
});

describe("resolveLayouts: agent folders", () => {
  it("recognises an .opencode/ layout with its own defaults", async () => {
    const { layouts } = await layoutsOf(new ProjectBuilder().dir(".opencode/work/ABC"));
    expect(layouts.map((l) => l.agentDir)).toEqual([".opencode"]);
    expect(paths(layouts[0]!)).toMatchObject({
      work: ".opencode/work",
      brainstorms: ".opencode/brainstorm",
      proposals: ".opencode/proposals",
      refactoring: ".opencode/work/refactoring-sessions",
    });
  });

  it("reads .opencode/configuration.yml for the .opencode layout", async () => {
    const b = new ProjectBuilder().config("storage:\n  locations:\n    s: {type: directory, path: state}\n  artifacts:\n    work: {location: s, subdir: w}\n", ".opencode");
    const { layouts } = await layoutsOf(b);
    expect(layouts[0]!.configPath).toBe(".opencode/configuration.yml");
    expect(layouts[0]!.artifacts.work.relPath).toBe("state/w");
  });

  it("lists every agent folder that holds a layout, .claude first", async () => {
    const { layouts } = await layoutsOf(new ProjectBuilder().dir(".opencode/brainstorm").dir(".claude/work").config("execution_mode: team\n", ".codex"));
    expect(layouts.map((l) => l.agentDir)).toEqual([".claude", ".opencode", ".codex"]);
  });

  it("an agent folder with neither configuration.yml nor artifact folders is not a layout", async () => {
    const { layouts } = await layoutsOf(new ProjectBuilder().dir(".claude/work").file(".opencode/specs/x/spec.md", "# spec"));
    expect(layouts.map((l) => l.agentDir)).toEqual([".claude"]);
  });

  it("resolveLayout for one agent folder takes the same defaults", async () => {
    const pfs = await ProjectFs.open(new ProjectBuilder().root);
    const l = await resolveLayout(pfs, ".codex", () => undefined);
    expect(l.artifacts.refactoring.relPath).toBe(".codex/work/refactoring-sessions");
  });
});
