import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../../..");
const sample = path.join(root, "examples/sample-project");

function workbench(...args: string[]) {
  return spawnSync(process.execPath, [path.join(root, "bin/workbench.cjs"), ...args], { encoding: "utf8", timeout: 60_000 });
}

describe("workbench loader", () => {
  it("prints the pack for a prompt on stdout", () => {
    const r = workbench("loader", "--project", sample, "How do we replay payment webhooks when the provider retries fail?");
    expect(r.status).toBe(0);
    expect(r.stdout.startsWith("<!-- context-loader:v1 -->\n# Context pack\n\nTrivial: no\n")).toBe(true);
    expect(r.stdout).toContain("### `docs/runbooks/payment-webhook-replay.md`");
  });

  it("prints the trivial pack and the error pack byte for byte", () => {
    expect(workbench("loader", "--project", sample, "thanks").stdout).toBe('<!-- context-loader:v1 -->\n# Context pack\n\nTrivial: yes\nReason: prompt is a pure acknowledgment ("thanks")\n');
    expect(workbench("loader", "--project", path.join(sample, "src"), "fix the export job").stdout).toBe("<!-- context-loader:v1 -->\n# Context pack\n\nError: kb_not_initialized\n");
  });

  it("answers a meta-question about the agent with the trivial pack, and walks a project's question about a model", () => {
    expect(workbench("loader", "--project", sample, "Which Claude are you, exactly, and what version?").stdout).toBe(
      '<!-- context-loader:v1 -->\n# Context pack\n\nTrivial: yes\nReason: prompt is a meta-question about the agent ("Which Claude are you, exactly, and what version?")\n',
    );
    const walked = workbench("loader", "--project", sample, "which model should the billing service use for retries?");
    expect(walked.status).toBe(0);
    expect(walked.stdout.startsWith("<!-- context-loader:v1 -->\n# Context pack\n\nTrivial: no\n")).toBe(true);
  });

  it("gives the walk as JSON with --json, and fails clearly on a missing folder", () => {
    const r = workbench("loader", "--json", "--project", sample, "why server-side sessions?");
    expect(r.status).toBe(0);
    const body = JSON.parse(r.stdout) as { pack: string; walk: { sections: unknown[] }; tokenizer: string };
    expect(body.walk.sections.length).toBeGreaterThan(0);
    expect(body.tokenizer).toContain("cl100k_base");
    const bad = workbench("loader", "--project", "/definitely/missing", "fix it");
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toContain("ERROR: No folder at /definitely/missing");
    expect(bad.stdout).toBe("");
  });
});
