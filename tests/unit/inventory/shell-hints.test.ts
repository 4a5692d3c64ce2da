/**
 * The shell's counterparts of the seed's slash-command hints (issue 30): what a person who ran
 * `workbench load-context` can type instead of `/load-context`, `/create-requirements` and
 * `/brainstorm`. The seed's own text is left to format.ts and its tests.
 */
import { describe, expect, it } from "vitest";
import { emptyInventoryHints, notFoundHints, shellHints, shellWord } from "../../../lib/inventory/shell-hints";

describe("shellWord", () => {
  it("leaves plain words as they are and single-quotes anything a shell would act on", () => {
    expect(shellWord("JIRA-123")).toBe("JIRA-123");
    expect(shellWord("/home/ana/repo")).toBe("/home/ana/repo");
    expect(shellWord("user auth")).toBe("'user auth'");
    expect(shellWord("$(touch x)")).toBe("'$(touch x)'");
    expect(shellWord("it's")).toBe(`'it'\\''s'`);
    expect(shellWord("")).toBe("''");
  });
});

describe("the hints", () => {
  it("name the shell commands for the seed's empty-inventory actions, with --project only when it was given", () => {
    expect(emptyInventoryHints(null)).toBe(
      [
        "In a shell:",
        "  workbench load-context '<query>'  search by keyword (/load-context <query>)",
        '  claude "/create-requirements"     start new work: the agent\'s skill, run through its CLI',
        '  claude "/brainstorm"              start brainstorming: the agent\'s skill, run through its CLI',
        "  workbench load-context            list what they wrote (read again on every run)",
        "",
      ].join("\n"),
    );
    const named = emptyInventoryHints("/srv/my repo");
    expect(named).toContain("  workbench load-context '<query>' --project '/srv/my repo'  search by keyword");
    expect(named).toContain("  workbench load-context --project '/srv/my repo'  ".trimEnd());
  });

  it("suggest the seed's broader query and the listing as commands", () => {
    expect(notFoundHints("user-authentication", "/srv/app")).toBe(
      [
        "In a shell:",
        "  workbench load-context authentication --project /srv/app  a broader query (/load-context authentication)",
        "  workbench load-context --project /srv/app                 list available context (/load-context)",
        "",
      ].join("\n"),
    );
  });

  it("come only with an answer that found nothing", () => {
    expect(shellHints({ query: undefined, topics: 3 }, null)).toBeNull();
    expect(shellHints({ query: undefined, topics: 0 }, null)).toBe(emptyInventoryHints(null));
    expect(shellHints({ query: "JIRA-1", mode: "exact" }, null)).toBeNull();
    expect(shellHints({ query: "JIRA-1", mode: "fuzzy" }, null)).toBeNull();
    expect(shellHints({ query: "JIRA-1", mode: "none" }, "/p")).toBe(notFoundHints("JIRA-1", "/p"));
  });
});
