import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ProjectFs } from "../../../lib/core/project-fs";
import { buildDocuments, listFiles, planScan, scanSources, type ScanPlan } from "../../../lib/inventory/scan";
import { isSearchable, locateArtifactFile } from "../../../lib/inventory/sources/documents";
import type { SearchDocument } from "../../../lib/inventory/types";
import { ProjectBuilder, copySampleProject, removeTempDirs } from "../../helpers/project-builder";

afterAll(removeTempDirs);

describe("planScan and listFiles on the sample", () => {
  let plan: ScanPlan;
  let pfs: ProjectFs;
  beforeAll(async () => {
    pfs = await ProjectFs.open(copySampleProject());
    plan = await planScan(pfs, () => undefined);
  });

  it("has one root per source from the .claude layout", () => {
    expect(plan.roots).toEqual([
      { source: "work", dir: ".claude/work" },
      { source: "brainstorm", dir: ".claude/brainstorm" },
      { source: "proposal", dir: ".claude/proposals" },
      { source: "refactoring", dir: ".claude/work/refactoring-sessions" },
    ]);
  });

  it("lists artifact, requirements, product and knowledge-base (docs/) files, each once, tagged with its area", async () => {
    const files = await listFiles(pfs, plan);
    const rels = files.map((f) => f.relPath);
    expect(new Set(rels).size).toBe(rels.length);
    expect(rels).toEqual([...rels].sort());
    const area = (p: string) => files.find((f) => f.relPath === p)?.area;
    expect(area(".claude/work/JIRA-123/state.json")).toBe("artifact");
    expect(area(".claude/work/refactoring-sessions/api-refactor/plan.md")).toBe("artifact");
    expect(area("knowledge/requirements/index.json")).toBe("requirements");
    expect(area("knowledge/product/billing.md")).toBe("product");
    // docs/ is the context-loader's knowledge base (it has docs/_index.md): searched too (issue 30, item 4).
    expect(area("docs/_index.md")).toBe("kb");
    expect(area("docs/runbooks/payment-webhook-replay.md")).toBe("kb");
    expect(area("docs/decisions/0003-async-exports.md")).toBe("kb");
    expect(rels.some((p) => p.startsWith("src/") || p.startsWith(".coord/"))).toBe(false);
    expect(rels).not.toContain(".claude/configuration.yml");
  });
});

describe("search documents", () => {
  let docs: SearchDocument[];
  beforeAll(async () => {
    const pfs = await ProjectFs.open(copySampleProject());
    const ctx = { pfs, warn: () => undefined };
    const plan = await planScan(pfs, ctx.warn);
    docs = await buildDocuments(ctx, plan, await listFiles(pfs, plan));
  });

  it("artifact documents know their source and slug; manifests are not documents", () => {
    const d = docs.find((x) => x.relPath === ".claude/work/refactoring-sessions/api-refactor/plan.md")!;
    expect(d).toMatchObject({ area: "artifact", source: "refactoring", slug: "api-refactor" });
    expect(docs.find((x) => x.relPath === ".claude/proposals/rate-limits.md")).toMatchObject({ source: "proposal", slug: "rate-limits", title: "Per-client API Rate Limits" });
    expect(docs.some((x) => x.relPath.endsWith("manifest.json") && x.area === "artifact")).toBe(false);
    expect(docs.some((x) => x.relPath.endsWith(".active-sessions"))).toBe(false);
  });

  it("the requirements KB gives one document per index.json ticket", () => {
    const tickets = docs.filter((x) => x.area === "requirements" && x.relPath.startsWith("knowledge/requirements/index.json#"));
    expect(tickets.map((t) => t.slug)).toEqual(["JIRA-060", "JIRA-071", "JIRA-088", "JIRA-095", "JIRA-102", "JIRA-110"]);
    expect(tickets.find((t) => t.slug === "JIRA-088")!.title).toBe("CSV export for invoices");
  });

  it("product documents are titled from the product manifest with its summary in the searchable text", () => {
    const billing = docs.find((x) => x.relPath === "knowledge/product/billing.md")!;
    expect(billing).toMatchObject({ area: "product", title: "Billing and Invoices" });
    expect(billing.content.startsWith("Invoice issuing and numbering")).toBe(true);
    expect(docs.filter((x) => x.area === "product").map((x) => x.relPath)).toEqual([
      "knowledge/product/authentication.md",
      "knowledge/product/billing.md",
      "knowledge/product/exports.md",
      "knowledge/product/notifications.md",
    ]);
  });
});

describe("scanSources scope (incremental re-index)", () => {
  it("re-reads only the slugs in scope but reports every slug present", async () => {
    const pfs = await ProjectFs.open(copySampleProject());
    const ctx = { pfs, warn: () => undefined };
    const plan = await planScan(pfs, ctx.warn);
    const scope = new Map([["work", new Set(["PROJ-42"])]] as const);
    const res = await scanSources(ctx, plan, new Map(scope));
    expect(res.records.map((r) => `${r.source}:${r.slug}`)).toEqual(["work:PROJ-42"]);
    expect([...res.present.get("work")!].sort()).toEqual(["JIRA-123", "PROJ-42", "search-brainstorm", "user-auth"]);
    expect([...res.present.get("proposal")!].sort()).toEqual(["rate-limits", "sso-integration"]);
  });

  it("a brainstorm slug in scope re-reads the legacy brainstorm kept in the work folder", async () => {
    const pfs = await ProjectFs.open(copySampleProject());
    const ctx = { pfs, warn: () => undefined };
    const plan = await planScan(pfs, ctx.warn);
    const res = await scanSources(ctx, plan, new Map([["brainstorm", new Set(["search-brainstorm"])]]));
    expect(res.records.map((r) => `${r.source}:${r.slug}:${r.legacy}`)).toEqual(["brainstorm:search-brainstorm:true"]);
  });
});

describe("document helpers", () => {
  const roots = [
    { source: "work" as const, dir: ".claude/work" },
    { source: "refactoring" as const, dir: ".claude/work/refactoring-sessions" },
    { source: "proposal" as const, dir: ".claude/proposals" },
  ];
  it("locateArtifactFile uses the deepest root and the first path segment as slug", () => {
    expect(locateArtifactFile(".claude/work/A/context/x.md", roots)).toEqual({ source: "work", slug: "A" });
    expect(locateArtifactFile(".claude/work/refactoring-sessions/r/plan.md", roots)).toEqual({ source: "refactoring", slug: "r" });
    expect(locateArtifactFile(".claude/proposals/rate-limits.md", roots)).toEqual({ source: "proposal", slug: "rate-limits" });
    expect(locateArtifactFile("src/a.ts", roots)).toBeNull();
  });

  it("isSearchable: text formats only, never manifests", () => {
    expect(isSearchable("a/b.md")).toBe(true);
    expect(isSearchable("a/b.json")).toBe(true);
    expect(isSearchable("a/b.yml")).toBe(true);
    expect(isSearchable("a/manifest.json")).toBe(false);
    expect(isSearchable("manifest.json")).toBe(false);
    expect(isSearchable("a/b.png")).toBe(false);
  });

  it("lists docs/ as the knowledge base only with its root index, markdown only, a knowledge area under it keeping its own area", async () => {
    const b = new ProjectBuilder()
      .config("storage:\n  locations:\n    kb: {type: directory, path: docs}\n  artifacts:\n    product-knowledge: {location: kb, subdir: product}\n")
      .file("docs/runbook.md", "# Runbook\n")
      .file("docs/diagram.txt", "not markdown\n")
      .file("docs/product/billing.md", "# Billing\n");
    const pfs = await ProjectFs.open(b.root);
    const areas = async () => Object.fromEntries((await listFiles(pfs, await planScan(pfs, () => undefined))).map((f) => [f.relPath, f.area]));
    expect(await areas()).toEqual({ "docs/product/billing.md": "product" });
    b.file("docs/_index.md", "# Docs\n");
    expect(await areas()).toEqual({ "docs/_index.md": "kb", "docs/product/billing.md": "product", "docs/runbook.md": "kb" });
  });

  it("product knowledge at a location's root does not swallow the requirements KB under it", async () => {
    const b = new ProjectBuilder()
      .config("storage:\n  locations:\n    kb: {type: directory, path: kb}\n  artifacts:\n    product-knowledge: {location: kb, subdir: .}\n    requirements: {location: kb, subdir: requirements}\n")
      .file("kb/product.md", "# Product doc\n")
      .json("kb/requirements/index.json", { tickets: [{ id: "T-1", title: "Ticket" }] })
      .file("kb/requirements/T-1/notes.md", "# Ticket notes\n");
    const pfs = await ProjectFs.open(b.root);
    const ctx = { pfs, warn: () => undefined };
    const plan = await planScan(pfs, ctx.warn);
    const docs = await buildDocuments(ctx, plan, await listFiles(pfs, plan));
    expect(docs.filter((d) => d.area === "product").map((d) => d.relPath)).toEqual(["kb/product.md"]);
    expect(docs.filter((d) => d.area === "requirements").map((d) => d.relPath)).toEqual(["kb/requirements/index.json#T-1", "kb/requirements/T-1/notes.md"]);
  });
});
