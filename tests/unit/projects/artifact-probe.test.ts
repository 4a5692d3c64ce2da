/**
 * Which folders hold agent artifacts (issue 30): a command given no project takes the current
 * folder only then, so the probe must see every source the index reads and nothing else.
 */
import { afterAll, describe, expect, it } from "vitest";
import { ProjectFs } from "../../../lib/core/project-fs";
import { findAgentArtifacts, holdsAgentArtifacts } from "../../../lib/projects/artifact-probe";
import { ProjectBuilder, REPO_ROOT, SAMPLE_SOURCE, removeTempDirs } from "../../helpers/project-builder";

afterAll(removeTempDirs);

/** What the probe finds, checked against the yes/no the CLI's start asks. */
function probe(b: ProjectBuilder): string[] {
  const pfs = ProjectFs.openSync(b.root);
  const found = findAgentArtifacts(pfs);
  expect(holdsAgentArtifacts(pfs)).toBe(found.length > 0);
  return found;
}

describe("findAgentArtifacts", () => {
  it("finds none in a folder of code, nor in one whose agent folder holds only settings", () => {
    const code = new ProjectBuilder().file("README.md", "# An app\n").file("src/index.ts", "export {};\n").file("package.json", "{}\n");
    expect(probe(code)).toEqual([]);
    code.file(".claude/settings.json", "{}\n").file(".claude/commands/deploy.md", "Deploy.\n").dir(".opencode").dir(".codex");
    expect(probe(code)).toEqual([]);
  });

  it("finds none where a docs/ or specs/ folder is not the skills' (no _index.md, no run packet)", () => {
    const b = new ProjectBuilder().file("docs/guide.md", "# Guide\n").file("specs/api/README.md", "# API spec\n").file(".opencode/specs/x/notes.md", "notes\n");
    expect(probe(b)).toEqual([]);
  });

  it("finds none in the Workbench's own folder", () => {
    expect(findAgentArtifacts(ProjectFs.openSync(REPO_ROOT))).toEqual([]);
    expect(holdsAgentArtifacts(ProjectFs.openSync(REPO_ROOT))).toBe(false);
  });

  it.each([
    [".claude/work/JIRA-1/state.json", ".claude/work/"],
    [".opencode/brainstorm/auth/state.json", ".opencode/brainstorm/"],
    [".codex/proposals/sso/proposal.md", ".codex/proposals/"],
    [".claude/configuration.yml", ".claude/configuration.yml"],
    [".coord/memory.yml", ".coord/"],
    ["docs/_index.md", "docs/_index.md"],
    [".opencode/specs/z/sweep/context/deep-context-state.jsonl", ".opencode/specs/z/sweep/context/deep-context-state.jsonl"],
    ["specs/a/b/context/deep-review-config.json", "specs/a/b/context/deep-review-config.json"],
  ])("finds %s", (file, found) => {
    const b = new ProjectBuilder().file("README.md", "# An app\n").file(file, "{}\n");
    expect(probe(b)).toEqual([found]);
  });

  it("finds every source of the bundled sample", () => {
    const found = findAgentArtifacts(ProjectFs.openSync(SAMPLE_SOURCE));
    expect(found).toEqual(expect.arrayContaining([".claude/configuration.yml", ".claude/work/", ".claude/brainstorm/", ".claude/proposals/", ".coord/", "docs/_index.md"]));
    expect(found.some((f) => f.startsWith(".opencode/specs/") && f.endsWith("/deep-context-state.jsonl"))).toBe(true);
  });
});
