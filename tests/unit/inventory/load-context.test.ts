import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GitCommitInfo } from "../../../lib/core/git";
import { WorkbenchError } from "../../../lib/core/errors";
import { GIT_GREP_LIMIT, loadContext, type LoadContextResult } from "../../../lib/inventory/load-context";
import { MemoryStore, memoryStoreFor, sampleGit } from "../../helpers/memory-store";
import { ProjectBuilder, copySampleProject, removeTempDirs } from "../../helpers/project-builder";

afterAll(removeTempDirs);

const slugs = (res: LoadContextResult) => Object.fromEntries(Object.entries(res.matches).map(([k, v]) => [k, v.map((r) => r.slug)]));

const PHASE2 = ["sourcesWithSlugLike", "documentsContaining", "commitsGrep"];

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    if (e instanceof WorkbenchError) return e.code;
    throw e;
  }
  return "resolved";
}

describe("loadContext on the sample project (in-memory store)", () => {
  let root: string;
  const fresh = async () => (await memoryStoreFor(root, sampleGit())).store;
  beforeAll(() => {
    root = copySampleProject();
  });

  describe("Phase 1: exact match", () => {
    it("JIRA-123: the work session, its prior art, its branch and the handoff; no fuzzy search", async () => {
      const store = await fresh();
      const res = await loadContext(store, "JIRA-123");
      expect(res.mode).toBe("exact");
      expect(res.pathSafe).toBe(true);
      expect(slugs(res)).toEqual({ work: ["JIRA-123"], brainstorm: [], proposal: [], refactoring: [] });
      expect(res.priorArt.map((p) => [p.slug, p.record?.source, p.record?.relPath])).toEqual([["export-approaches", "brainstorm", ".claude/brainstorm/export-approaches"]]);
      expect(res.git.branches.map((b) => b.name)).toEqual(["feature/JIRA-123"]);
      expect(res.git.commits.map((c) => c.subject)).toEqual([
        "[JIRA-123] fix(export): neutralise spreadsheet formulas in CSV cells",
        "[JIRA-123] feat(export): add export endpoint",
        "[JIRA-123] feat(export): create UserExporter service",
        "fix(auth): set Secure and SameSite=Lax on the authentication cookie outside development",
        "chore: initial import of Acme Orders service",
      ]);
      expect(res.handoff).toEqual({
        slug: "JIRA-123",
        type: "implementation",
        status: "in_progress",
        options: [
          { label: "Resume implementation", command: "/resume-work JIRA-123" },
          { label: "No, just reviewing", command: "" },
        ],
      });
      expect(res.flagged).toEqual([expect.objectContaining({ relPath: ".claude/work/JIRA-123/context/archivist-summary.md", line: 6, rule: "override" })]);
      expect(res.requirements).toBeNull();
      expect(res.product).toBeNull();
      expect(res.contentMatches).toEqual([]);
      for (const m of PHASE2) expect(store.called(m)).toBe(false);
    });

    it("user-auth (requirements, completed) offers /implement and Extend", async () => {
      const res = await loadContext(await fresh(), "user-auth");
      expect(res.mode).toBe("exact");
      expect(res.handoff?.options.map((o) => o.command)).toEqual(["/implement user-auth", "/resume-work user-auth", ""]);
      expect(res.git.branches.map((b) => b.name)).toEqual(["feature/user-auth"]);
    });

    it("PROJ-42 (epic) offers Resume epic", async () => {
      const res = await loadContext(await fresh(), "PROJ-42");
      expect(res.handoff?.options.map((o) => o.label)).toEqual(["Resume epic", "No, just reviewing"]);
    });

    it("a current-location brainstorm is found by its manifest; no handoff (no work state.json)", async () => {
      const res = await loadContext(await fresh(), "export-approaches");
      expect(slugs(res)).toEqual({ work: [], brainstorm: ["export-approaches"], proposal: [], refactoring: [] });
      expect(res.matches.brainstorm[0]!.legacy).toBe(false);
      expect(res.handoff).toBeNull();
    });

    it("the legacy brainstorm resolves to the work folder", async () => {
      const res = await loadContext(await fresh(), "search-brainstorm");
      expect(res.mode).toBe("exact");
      expect(res.matches.brainstorm.map((r) => [r.slug, r.legacy, r.relPath])).toEqual([["search-brainstorm", true, ".claude/work/search-brainstorm"]]);
      expect(res.matches.work).toEqual([]);
    });

    it("the legacy brainstorm's work-folder state.json drives the Phase 4 handoff (brainstorm, in_progress)", async () => {
      const res = await loadContext(await fresh(), "search-brainstorm");
      expect(res.handoff).toEqual({
        slug: "search-brainstorm",
        type: "brainstorm",
        status: "in_progress",
        options: [
          { label: "Resume brainstorm", command: "/resume-work search-brainstorm" },
          { label: "No, just reviewing", command: "" },
        ],
      });
    });

    it("a single-file proposal is found by its slug and by its file name", async () => {
      for (const q of ["rate-limits", "rate-limits.md"]) {
        const res = await loadContext(await fresh(), q);
        expect(res.mode).toBe("exact");
        expect(res.matches.proposal.map((r) => r.relPath)).toEqual([".claude/proposals/rate-limits.md"]);
      }
    });

    it("a refactoring session is found by its manifest, with its branch", async () => {
      const res = await loadContext(await fresh(), "api-refactor");
      expect(slugs(res).refactoring).toEqual(["api-refactor"]);
      expect(res.git.branches.map((b) => b.name)).toEqual(["refactor/api-refactor"]);
    });

    it("a branch alone is an exact match (git branch --list *query*): no fuzzy search", async () => {
      const store = await fresh();
      const res = await loadContext(store, "auth");
      expect(res.mode).toBe("exact");
      expect(res.git.branches.map((b) => b.name)).toEqual(["feature/user-auth"]);
      expect(slugs(res)).toEqual({ work: [], brainstorm: [], proposal: [], refactoring: [] });
      for (const m of PHASE2) expect(store.called(m)).toBe(false);
    });
  });

  describe("queries that are not path-safe", () => {
    it("feature/JIRA-123: pathSafe=false, path lookups skipped, the branch is still found as data", async () => {
      const res = await loadContext(await fresh(), "feature/JIRA-123");
      expect(res.pathSafe).toBe(false);
      expect(res.mode).toBe("exact");
      expect(res.git.branches.map((b) => b.name)).toEqual(["feature/JIRA-123"]);
      expect(slugs(res)).toEqual({ work: [], brainstorm: [], proposal: [], refactoring: [] });
      expect(res.handoff).toBeNull();
    });

    it("a query with '..' is searched as data and never resolves a path", async () => {
      const res = await loadContext(await fresh(), "../JIRA-123");
      expect(res.pathSafe).toBe(false);
      expect(res.mode).not.toBe("exact");
      expect(slugs(res)).toEqual({ work: [], brainstorm: [], proposal: [], refactoring: [] });
      expect(res.handoff).toBeNull();
      expect(res.query).toBe("../JIRA-123");
    });
  });

  describe("Phase 2: fuzzy fallback, only when Phase 1 found nothing", () => {
    it("a folder name containing the query (no exact slug, no branch)", async () => {
      const store = await fresh();
      const res = await loadContext(store, "notif");
      expect(res.mode).toBe("fuzzy");
      expect(slugs(res).brainstorm).toEqual(["notifications-revamp"]);
      expect(store.called("sourcesWithSlugLike")).toBe(true);
    });

    it("a hand-made brainstorm (no state.json) is not an exact match but the fuzzy phase finds it", async () => {
      const res = await loadContext(await fresh(), "sso-ideas");
      expect(res.mode).toBe("fuzzy");
      expect(res.matches.brainstorm.map((r) => r.slug)).toContain("sso-ideas");
    });

    it("'export': folders, file contents, requirements KB top 3, product knowledge and git log grep", async () => {
      const res = await loadContext(await fresh(), "export");
      expect(res.mode).toBe("fuzzy");
      expect(res.matches.brainstorm.map((r) => r.slug)).toContain("export-approaches");
      expect(res.matches.work.map((r) => r.slug)).toContain("JIRA-123");
      expect(res.contentMatches.length).toBeGreaterThan(0);
      expect(res.contentMatches.length).toBeLessThanOrEqual(20);
      expect(res.requirements).not.toBeNull();
      // Two tickets mention export; each appears once although JIRA-088 is indexed twice.
      expect(res.requirements!.length).toBe(2);
      expect(new Set(res.requirements!.map((r) => r.id)).size).toBe(2);
      expect(res.requirements![0]!.id).toBe("JIRA-088");
      expect(res.requirements!.map((r) => r.relevance)).toEqual([...res.requirements!.map((r) => r.relevance)].sort((a, b) => b - a));
      expect(res.requirements!.every((r) => r.relevance > 0 && r.relevance <= 1)).toBe(true);
      expect(res.product!.map((p) => p.relPath)).toContain("knowledge/product/exports.md");
      expect(res.git.commits.map((c) => c.subject)).toEqual([
        "[JIRA-123] fix(export): neutralise spreadsheet formulas in CSV cells",
        "[JIRA-123] feat(export): add export endpoint",
        "[JIRA-123] feat(export): create UserExporter service",
      ]);
      expect(res.searched).toMatchObject({ requirements: "searched", product: "searched" });
    });

    it("requirements KB results name distinct tickets", async () => {
      const res = await loadContext(await fresh(), "csv export");
      const ids = res.requirements!.map((r) => r.id);
      expect(ids.length).toBeGreaterThan(0);
      expect(new Set(ids).size).toBe(ids.length);
    });

    it("a content match points at the line that contains the query", async () => {
      const res = await loadContext(await fresh(), "sso-ideas");
      const m = res.contentMatches.find((c) => c.relPath === ".claude/proposals/sso-integration/proposal.md");
      expect(m).toBeDefined();
      expect(m!.line).toBe(32);
      expect(m!.excerpt).toContain("sso-ideas");
    });

    it("git log grep: commit messages containing the query, case-insensitively", async () => {
      const res = await loadContext(await fresh(), "authentication");
      expect(res.mode).toBe("fuzzy");
      expect(res.git.branches).toEqual([]);
      expect(res.git.commits.map((c) => c.subject)).toEqual(["fix(auth): set Secure and SameSite=Lax on the authentication cookie outside development"]);
      expect(res.product!.map((p) => p.relPath)).toContain("knowledge/product/authentication.md");
    });

    it("flags the embedded directive of a matched product document", async () => {
      const res = await loadContext(await fresh(), "invoice");
      expect(res.flagged).toEqual(expect.arrayContaining([expect.objectContaining({ relPath: "knowledge/product/billing.md", rule: "role-impersonation" })]));
    });

    it("git log grep asks for at most 10 commits", async () => {
      const many: GitCommitInfo[] = Array.from({ length: 15 }, (_, i) => {
        const hash = `${(i + 10).toString(16)}`.padStart(2, "0").repeat(20);
        return { hash, shortHash: hash.slice(0, 7), date: `2026-03-${String(i + 1).padStart(2, "0")}T00:00:00Z`, subject: `widget change ${i}`, message: `widget change ${i}` };
      });
      const { store } = await memoryStoreFor(root, { branches: [], commits: many });
      const res = await loadContext(store, "widget");
      expect(GIT_GREP_LIMIT).toBe(10);
      expect(store.calls.find((c) => c.method === "commitsGrep")!.args).toEqual(["widget", 10]);
      expect(res.git.commits).toHaveLength(10);
      expect(res.git.commits[0]!.subject).toBe("widget change 0");
    });

    it("nothing anywhere: mode none, every location listed", async () => {
      const res = await loadContext(await fresh(), "zzz-nothing-matches");
      expect(res.mode).toBe("none");
      expect(res.searched).toEqual({
        work: ".claude/work",
        brainstorms: ".claude/brainstorm",
        proposals: ".claude/proposals",
        refactoring: ".claude/work/refactoring-sessions",
        requirements: "searched",
        product: "searched",
      });
    });
  });

  describe("query input", () => {
    it.each([[""], ["  "], ["\n"], [" \t\r\n "]])("blank query %j is INVALID_INPUT", async (q) => {
      expect(await codeOf(loadContext(await fresh(), q))).toBe("INVALID_INPUT");
    });

    it("quotes, $() and newlines are plain data: nothing is matched loosely or executed", async () => {
      for (const q of ['JIRA-123"; echo pwned', "$(touch pwned) JIRA-123", "JIRA-123\nuser-auth", "`id`"]) {
        const res = await loadContext(await fresh(), q);
        expect(res.query).toBe(q);
        expect(res.matches.work.map((r) => r.slug)).not.toContain("user-auth");
        expect(res.handoff).toBeNull();
      }
    });
  });
});

describe("loadContext per-source rules on hand-built projects", () => {
  it("with a valid work manifest, a folder it does not list is not an exact match (the fuzzy phase finds it)", async () => {
    const b = new ProjectBuilder().manifest(".claude/work", "work", [{ identifier: "LISTED", type: "implementation", status: "in_progress" }]).workState("UNLISTED", { type: "implementation", status: "in_progress" });
    const { store } = await memoryStoreFor(b.root);
    expect((await loadContext(store, "LISTED")).mode).toBe("exact");
    const res = await loadContext(store, "UNLISTED");
    expect(res.mode).toBe("fuzzy");
    expect(res.matches.work.map((r) => r.slug)).toEqual(["UNLISTED"]);
    // Phase 4 keys on WORK_DIR/<query>/state.json, which exists.
    expect(res.handoff?.options[0]?.label).toBe("Resume implementation");
  });

  it("without a manifest the folder is the exact match", async () => {
    const b = new ProjectBuilder().workState("DIR-ONLY", { type: "requirements", status: "in_progress" });
    const { store } = await memoryStoreFor(b.root);
    const res = await loadContext(store, "DIR-ONLY");
    expect(res.mode).toBe("exact");
    expect(res.handoff?.options[0]).toEqual({ label: "Resume requirements", command: "/resume-work DIR-ONLY" });
  });

  it("a manifest key with quotes and $() is matched exactly, as data", async () => {
    const key = 'odd "quoted" $(id) key';
    const b = new ProjectBuilder().manifest(".claude/work", "work", [{ identifier: key, title: "Odd", type: "epic", status: "in_progress" }]);
    const { store } = await memoryStoreFor(b.root);
    const res = await loadContext(store, key);
    expect(res.mode).toBe("exact");
    expect(res.matches.work.map((r) => r.title)).toEqual(["Odd"]);
    expect(res.handoff).toBeNull(); // no state.json on disk
  });

  it("a manifest item with a slash in its key is still found (manifest lookups take the query as data)", async () => {
    const b = new ProjectBuilder().manifest(".claude/proposals", "proposals", [{ name: "team/sso", title: "Team SSO", status: "draft" }]);
    const { store } = await memoryStoreFor(b.root);
    const res = await loadContext(store, "team/sso");
    expect(res.pathSafe).toBe(false);
    expect(res.matches.proposal.map((r) => r.title)).toEqual(["Team SSO"]);
  });

  it("a folder named with '..' is not opened by an exact path lookup", async () => {
    const b = new ProjectBuilder().workState("v1..v2", { type: "implementation", status: "in_progress", title: "Dotted" });
    const { store } = await memoryStoreFor(b.root);
    const res = await loadContext(store, "v1..v2");
    expect(res.pathSafe).toBe(false);
    expect(res.mode).not.toBe("exact");
    expect(res.handoff).toBeNull();
  });

  it("a brainstorm folder without state.json is not an exact brainstorm match", async () => {
    const b = new ProjectBuilder().file(".claude/brainstorm/idea/notes.md", "# Idea\n");
    const { store } = await memoryStoreFor(b.root);
    const res = await loadContext(store, "idea");
    expect(res.mode).toBe("fuzzy");
    expect(res.matches.brainstorm.map((r) => r.slug)).toEqual(["idea"]);
  });

  it("requirements and product knowledge are not searched when not configured", async () => {
    const b = new ProjectBuilder().workState("A", { type: "epic" }).file("knowledge/requirements/index.json", '{"tickets":[{"id":"X-1","title":"zebra"}]}');
    const { store } = await memoryStoreFor(b.root);
    const res = await loadContext(store, "zebra");
    expect(res.requirements).toBeNull();
    expect(res.product).toBeNull();
    expect(res.searched).toMatchObject({ requirements: "not configured", product: "not configured" });
    expect(store.calls.filter((c) => c.method === "documentsContaining").map((c) => c.args[1])).toEqual(["artifact"]);
  });

  it("fuzzy matching by folder name returns at most 10 per source", async () => {
    const b = new ProjectBuilder();
    for (let i = 0; i < 14; i++) b.workState(`feat-${String(i).padStart(2, "0")}`, { type: "epic" });
    const { store } = await memoryStoreFor(b.root);
    const res = await loadContext(store, "feat");
    expect(res.mode).toBe("fuzzy");
    expect(res.matches.work).toHaveLength(10);
  });

  describe("Phase 4 handoff for every row of the table", () => {
    const rows: [string, string, string[]][] = [
      ["implementation", "in_progress", ["Resume implementation"]],
      ["implementation", "completed", ["Extend implementation"]],
      ["requirements", "in_progress", ["Resume requirements"]],
      ["requirements", "completed", ["Start implementing", "Extend requirements"]],
      ["brainstorm", "in_progress", ["Resume brainstorm"]],
      ["brainstorm", "completed", ["Create requirements from brainstorm"]],
      ["proposal", "draft", ["Resume proposal"]],
      ["epic", "paused", ["Resume epic"]],
    ];
    let store: MemoryStore;
    beforeAll(async () => {
      const b = new ProjectBuilder();
      for (const [type, status] of rows) b.workState(`${type}-${status}`, { type, status, title: `${type} ${status}` });
      b.dir(".claude/work/no-state");
      store = (await memoryStoreFor(b.root)).store;
    });

    it.each(rows.filter(([t]) => t !== "brainstorm"))("(%s, %s) on a work session", async (type, status, labels) => {
      const res = await loadContext(store, `${type}-${status}`);
      expect(res.handoff).toMatchObject({ slug: `${type}-${status}`, type, status });
      expect(res.handoff!.options.map((o) => o.label)).toEqual([...labels, "No, just reviewing"]);
    });

    it("(brainstorm, in_progress) and (brainstorm, completed): sessions kept in the work folder", async () => {
      const got = [];
      for (const status of ["in_progress", "completed"]) {
        const res = await loadContext(store, `brainstorm-${status}`);
        got.push(res.handoff?.options.map((o) => o.label) ?? null);
      }
      expect(got).toEqual([
        ["Resume brainstorm", "No, just reviewing"],
        ["Create requirements from brainstorm", "No, just reviewing"],
      ]);
    });

    it("no state.json: no handoff", async () => {
      const res = await loadContext(store, "no-state");
      expect(res.mode).toBe("exact");
      expect(res.handoff).toBeNull();
    });
  });

  describe("prior art", () => {
    it("a promoted_from pointing at a legacy brainstorm resolves to the work folder", async () => {
      const b = new ProjectBuilder()
        .workState("W", { type: "requirements", status: "in_progress", brainstorm: { promoted_from: "old-bs" } })
        .workState("old-bs", { type: "brainstorm", status: "completed", title: "Old" });
      const { store } = await memoryStoreFor(b.root);
      const res = await loadContext(store, "W");
      expect(res.priorArt.map((p) => [p.slug, p.record?.relPath, p.record?.legacy])).toEqual([["old-bs", ".claude/work/old-bs", true]]);
    });

    it("prefers the brainstorm folder over a legacy copy with the same slug", async () => {
      const b = new ProjectBuilder()
        .workState("W", { type: "requirements", brainstorm: { promoted_from: "bs" } })
        .workState("bs", { type: "brainstorm", title: "Legacy" })
        .json(".claude/brainstorm/bs/state.json", { title: "Current" });
      const { store } = await memoryStoreFor(b.root);
      const res = await loadContext(store, "W");
      expect(res.priorArt.map((p) => p.record?.title)).toEqual(["Current"]);
    });

    it("a missing promoted_from brainstorm is reported with a null record", async () => {
      const b = new ProjectBuilder().workState("W", { type: "requirements", brainstorm: { promoted_from: "gone" } });
      const { store } = await memoryStoreFor(b.root);
      expect((await loadContext(store, "W")).priorArt).toEqual([{ slug: "gone", record: null }]);
    });
  });
});
