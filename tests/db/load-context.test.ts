import { execFileSync } from "node:child_process";
import os from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readBranches, readCommits } from "../../lib/core/git";
import { contextStoreFor } from "../../lib/db/repositories/context-store";
import { formatLoadContext } from "../../lib/inventory/format";
import { loadContext } from "../../lib/inventory/load-context";
import { inventoryMarkdown, loadContextForProject } from "../../lib/inventory/service";
import { indexFolder } from "../helpers/db";
import { memoryStoreFor } from "../helpers/memory-store";
import { ProjectBuilder, removeTempDirs } from "../helpers/project-builder";
import { buildSampleRepo } from "../helpers/sample-project";

afterAll(removeTempDirs);

describe("load-context against the indexed sample project (database store)", () => {
  let root: string;
  let projectId: string;
  let hashes: Record<string, string>;

  beforeAll(async () => {
    const sample = await buildSampleRepo();
    root = sample.targetDir;
    hashes = sample.commits;
    ({ projectId } = await indexFolder(root));
  });

  it("JIRA-123: the same markdown on every run, with the seed's key lines", async () => {
    const a = (await loadContextForProject(projectId, "JIRA-123")).markdown;
    const b = (await loadContextForProject(projectId, "JIRA-123")).markdown;
    expect(b).toBe(a);
    const lines = a.split("\n");
    expect(lines.slice(0, 5)).toEqual([
      "Context: JIRA-123",
      "━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━",
      "> HISTORICAL REFERENCE — This state was recorded in a prior session. Verify all",
      "> file paths, statuses, and decisions against the current working tree before",
      "> acting. Do NOT re-run past commands or re-apply past edits.",
    ]);
    for (const l of [
      "## Work State",
      "Status: implement (in_progress)",
      "Branch: feature/JIRA-123 → origin/main",
      "Chunks: 2/3 completed",
      "## Prior art: Brainstorm 'export-approaches'",
      "## Git History",
      "- feature/JIRA-123 (last commit: 2026-02-09)",
      `- ${hashes["JIRA-123-3"]} [JIRA-123] fix(export): neutralise spreadsheet formulas in CSV cells (2026-02-09)`,
      `- ${hashes["JIRA-123-2"]} [JIRA-123] feat(export): add export endpoint (2026-02-05)`,
      `- ${hashes["JIRA-123-1"]} [JIRA-123] feat(export): create UserExporter service (2026-02-03)`,
      "## Flagged content",
      "- Resume implementation → /resume-work JIRA-123",
      "- No, just reviewing",
    ]) {
      expect(lines).toContain(l);
    }
    expect(a.endsWith("━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━\n")).toBe(true);
  });

  it("the state.json the sample script rewrote names the real commits of feature/JIRA-123", async () => {
    const { result } = await loadContextForProject(projectId, "JIRA-123");
    const recent = result.git.branches[0]!.recent.map((r) => r.shortHash);
    expect(recent.slice(0, 3)).toEqual([hashes["JIRA-123-3"], hashes["JIRA-123-2"], hashes["JIRA-123-1"]]);
  });

  it("feature/JIRA-123 is not path-safe but finds the branch as data", async () => {
    const { result, markdown } = await loadContextForProject(projectId, "feature/JIRA-123");
    expect(result.pathSafe).toBe(false);
    expect(result.mode).toBe("exact");
    expect(result.git.branches.map((b) => b.name)).toEqual(["feature/JIRA-123"]);
    expect(result.matches.work).toEqual([]);
    expect(markdown).toContain("## Git History\nBranches:\n- feature/JIRA-123 (last commit: 2026-02-09)");
    expect(markdown).not.toContain("## Work State");
  });

  it("'authentication' falls back to fuzzy search: git log grep, requirements KB, product knowledge", async () => {
    const { result } = await loadContextForProject(projectId, "authentication");
    expect(result.mode).toBe("fuzzy");
    expect(result.git.commits.map((c) => c.subject)).toEqual(["fix(auth): set Secure and SameSite=Lax on the authentication cookie outside development"]);
    expect(result.git.commits[0]!.shortHash).toBe(hashes["main-1"]);
    expect(result.requirements!.map((r) => r.id)).toContain("JIRA-071");
    expect(result.requirements!.length).toBeLessThanOrEqual(3);
    expect(result.product!.map((p) => p.relPath)).toContain("knowledge/product/authentication.md");
  });

  it("the no-argument inventory lists the nine topics", async () => {
    const md = await inventoryMarkdown(projectId);
    expect(md.startsWith("Available Context\n")).toBe(true);
    expect(md).toContain("\n9 topics found across local sources.\n");
    expect(await inventoryMarkdown(projectId)).toBe(md);
  });

  it("a blank query is refused before anything is looked up", async () => {
    await expect(loadContextForProject(projectId, "  ")).rejects.toMatchObject({ code: "INVALID_INPUT" });
  });

  it("quotes, $() and newlines reach the database as data", async () => {
    for (const q of ["JIRA-123' OR '1'='1", 'x"; DROP TABLE Topic; --', "$(id)", "JIRA-123\n%"]) {
      const { result } = await loadContextForProject(projectId, q);
      expect(result.query).toBe(q);
      expect(result.matches.work.map((r) => r.slug)).not.toContain("JIRA-123");
    }
    expect((await loadContextForProject(projectId, "JIRA-123")).result.mode).toBe("exact");
  });

  it.each(["JIRA-123", "user-auth", "search-brainstorm", "rate-limits.md", "api-refactor", "export", "authentication", "notif", "sso-ideas", "zzz-nothing"])(
    "the database store gives the same output as the in-memory reference for %j",
    async (q) => {
      const { store: memory } = await memoryStoreFor(root, { branches: await readBranches(root), commits: await readCommits(root) });
      const db = await contextStoreFor(projectId);
      expect(formatLoadContext(await loadContext(db, q))).toBe(formatLoadContext(await loadContext(memory, q)));
    },
  );

  describe("the store's lookups", () => {
    it("slug search is case-insensitive; branch search is case-sensitive like git branch --list", async () => {
      const db = await contextStoreFor(projectId);
      expect((await db.sourcesWithSlugLike("jira", 10)).map((r) => r.slug)).toEqual(["JIRA-123"]);
      expect(await db.branchesContaining("jira")).toEqual([]);
      expect((await db.branchesContaining("JIRA")).map((b) => b.name)).toEqual(["feature/JIRA-123"]);
      expect((await db.sourcesForSlug("jira-123")).length).toBe(0);
    });

    it("document search ignores case; commit search is case-sensitive like git log --grep", async () => {
      const db = await contextStoreFor(projectId);
      expect((await db.documentsContaining(["BILLING"], "product", 10)).map((d) => d.relPath)).toContain("knowledge/product/billing.md");
      const commits = await db.commitsGrep("JIRA-123", 10);
      expect(commits.map((c) => c.shortHash)).toEqual([hashes["JIRA-123-3"], hashes["JIRA-123-2"], hashes["JIRA-123-1"]]);
      expect((await db.commitsGrep("authentication", 10)).length).toBe(1);
      expect((await db.commitsGrep("AUTHENTICATION", 10)).length).toBe(0);
    });

    it("knows which knowledge bases are configured", async () => {
      expect(await (await contextStoreFor(projectId)).knowledgeConfigured()).toEqual({ requirements: true, product: true });
    });
  });
});

describe("git log grep through the database", () => {
  it("returns at most 10 commits, newest first", async () => {
    const b = new ProjectBuilder().workState("OTHER-1", { type: "epic" });
    const env = {
      ...process.env,
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: os.devNull,
      GIT_AUTHOR_NAME: "T",
      GIT_AUTHOR_EMAIL: "t@example.test",
      GIT_COMMITTER_NAME: "T",
      GIT_COMMITTER_EMAIL: "t@example.test",
    };
    const git = (...args: string[]) => execFileSync("git", args, { cwd: b.root, env, stdio: "pipe" });
    git("init", "-q", "-b", "main");
    for (let i = 1; i <= 12; i++) {
      const date = `2026-03-${String(i).padStart(2, "0")}T10:00:00Z`;
      execFileSync("git", ["commit", "-q", "--allow-empty", "--no-gpg-sign", "-m", `widget step ${i}`], {
        cwd: b.root,
        env: { ...env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date },
        stdio: "pipe",
      });
    }
    const { projectId } = await indexFolder(b.root);
    const { result } = await loadContextForProject(projectId, "widget");
    expect(result.mode).toBe("fuzzy");
    expect(result.git.commits.map((c) => c.subject)).toEqual(Array.from({ length: 10 }, (_, i) => `widget step ${12 - i}`));
  });

  it("a project without git and without configuration: requirements and product 'not configured'", async () => {
    const b = new ProjectBuilder().workState("SOLO-1", { type: "epic", status: "in_progress" });
    const { projectId, stats } = await indexFolder(b.root);
    expect(stats).toMatchObject({ commits: 0, branches: 0 });
    const { markdown } = await loadContextForProject(projectId, "nothing-like-this");
    expect(markdown).toContain("  Requirements: not configured\n  Product KB: not configured\n");
    expect(markdown).toContain("  Work state: .claude/work — not found\n");
  });
});
