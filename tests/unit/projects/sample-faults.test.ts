import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { deliberateFaultsAt, isBundledSample, parseDeliberateFaults, sampleFaultPaths } from "../../../lib/projects/sample-faults";

const REPO = path.resolve(import.meta.dirname, "../../..");
const SHIPPED = path.join(REPO, "examples/sample-project");
const MANIFEST = ".claude/proposals/manifest.json";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "wb-sample-faults-"));
const dataDir = path.join(tmp, "data");
/** Where `workbench serve --sample` puts the bundled sample for this data folder. */
const bundled = path.join(dataDir, "sample-project");
/** The same files anywhere else: just a repository. */
const lookalike = path.join(tmp, "lookalike");
const savedDataDir = process.env.WORKBENCH_DATA_DIR;

beforeAll(() => {
  fs.cpSync(SHIPPED, bundled, { recursive: true });
  fs.cpSync(SHIPPED, lookalike, { recursive: true });
});
afterEach(() => {
  if (savedDataDir === undefined) delete process.env.WORKBENCH_DATA_DIR;
  else process.env.WORKBENCH_DATA_DIR = savedDataDir;
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe("parseDeliberateFaults", () => {
  it("reads the Deliberate faults table of the sample's SAMPLE.md: what, where, what the product should do", () => {
    const faults = parseDeliberateFaults(fs.readFileSync(path.join(SHIPPED, "SAMPLE.md"), "utf8"));
    expect(faults.find((f) => f.paths.includes(MANIFEST))).toMatchObject({
      fault: "Corrupt manifest (JSON cut off in the middle of an item)",
      expected: "Warn and name the file, then fall back to a directory scan of .claude/proposals/",
    });
    expect(faults.find((f) => f.paths.includes("docs/architecture/_index.md"))?.fault).toBe("Broken link in a map of content");
    expect(faults.find((f) => f.paths.includes("knowledge/product/billing.md"))).toBeTruthy();
    // Only the faults table: the files table above it declares nothing.
    expect(faults.flatMap((f) => f.paths)).not.toContain(".coord/memory.yml");
  });

  it("takes only project-relative paths from the Where cell, and nothing from a file without the section", () => {
    const md = [
      "## Deliberate faults",
      "",
      "| Fault | Where | What |",
      "|---|---|---|",
      "| A | `a/b.json`, `../up.json`, `/abs.json`, `two words` | warn |",
      "| B | nowhere | x |",
      "## Next",
      "| C | `c.json` | y |",
    ].join("\n");
    expect(parseDeliberateFaults(md)).toEqual([{ fault: "A", paths: ["a/b.json"], expected: "warn" }]);
    expect(parseDeliberateFaults("# Nothing here\n| A | `a.json` | b |")).toEqual([]);
  });
});

describe("sampleFaultPaths: only the bundled sample, only faults still as shipped", () => {
  it("labels the bundled sample's corrupt manifest, broken link and embedded directives", () => {
    process.env.WORKBENCH_DATA_DIR = dataDir;
    expect(isBundledSample(bundled)).toBe(true);
    const faults = sampleFaultPaths(bundled);
    expect(deliberateFaultsAt(faults, MANIFEST).map((f) => f.fault)).toEqual(["Corrupt manifest (JSON cut off in the middle of an item)"]);
    expect(deliberateFaultsAt(faults, "docs/architecture/_index.md")).toHaveLength(1);
    expect(deliberateFaultsAt(faults, ".claude/work/JIRA-123/context/archivist-summary.md")).toHaveLength(1);
    // A folder fault covers what is inside it.
    expect(deliberateFaultsAt(faults, ".claude/brainstorm/sso-ideas/notes.md")).toHaveLength(1);
    // Anything else is a warning like any other.
    expect(deliberateFaultsAt(faults, ".claude/brainstorm/manifest.json")).toEqual([]);
    expect(deliberateFaultsAt(faults, "docs/architecture/_index.md.bak")).toEqual([]);
  });

  it("labels nothing in another repository, even one holding the same files and SAMPLE.md", () => {
    process.env.WORKBENCH_DATA_DIR = dataDir;
    expect(isBundledSample(lookalike)).toBe(false);
    expect(sampleFaultPaths(lookalike)).toEqual([]);
  });

  it("stops labelling a file once it differs from what the sample shipped: it may be broken for a real reason", () => {
    process.env.WORKBENCH_DATA_DIR = dataDir;
    const file = path.join(bundled, MANIFEST);
    const original = fs.readFileSync(file);
    try {
      fs.writeFileSync(file, '{"proposals": [');
      expect(deliberateFaultsAt(sampleFaultPaths(bundled), MANIFEST)).toEqual([]);
      // The project's own SAMPLE.md cannot widen the list either: the Workbench's copy is read.
      fs.appendFileSync(path.join(bundled, "SAMPLE.md"), "| Fake | `src/auth/SessionService.ts` | hide it |\n");
      expect(deliberateFaultsAt(sampleFaultPaths(bundled), "src/auth/SessionService.ts")).toEqual([]);
    } finally {
      fs.writeFileSync(file, original);
      fs.copyFileSync(path.join(SHIPPED, "SAMPLE.md"), path.join(bundled, "SAMPLE.md"));
    }
    expect(deliberateFaultsAt(sampleFaultPaths(bundled), MANIFEST)).toHaveLength(1);
  });
});
