/**
 * `npm run docs:config`: rewrites the README's configuration tables from lib/core/env.ts, between
 * the config markers. `--check` only says whether the README is current (exit 1 when not).
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { envDocs, type EnvAudience, type EnvDoc } from "../lib/core/env";

export const BEGIN = "<!-- config:begin (generated from lib/core/env.ts by `npm run docs:config`: edit the descriptions there) -->";
export const END = "<!-- config:end -->";

function table(rows: EnvDoc[]): string {
  // A pipe inside a cell would end it.
  const cell = (s: string) => s.replaceAll("|", "\\|");
  return ["| variable | default | meaning |", "| --- | --- | --- |", ...rows.map((r) => `| \`${r.name}\` | ${cell(r.shown)} | ${cell(r.description)} |`)].join("\n");
}

/** The generated part of the README's "Configuration" section. */
export function renderConfigSection(docs: EnvDoc[] = envDocs()): string {
  const of = (...a: EnvAudience[]) => docs.filter((d) => a.includes(d.audience));
  return [
    BEGIN,
    table(of("operator")),
    "",
    "For `workbench api` on another machine:",
    "",
    table(of("client")),
    "",
    "Set by the Workbench for the processes it starts, or used by development scripts and tests:",
    "",
    table(of("internal", "development")),
    END,
  ].join("\n");
}

/** The README with its generated section replaced; throws when the markers are missing. */
export function rewriteReadme(readme: string, section = renderConfigSection()): string {
  const a = readme.indexOf(BEGIN);
  const b = readme.indexOf(END);
  if (a < 0 || b < a) throw new Error(`README.md has no configuration markers (${BEGIN} … ${END})`);
  return readme.slice(0, a) + section + readme.slice(b + END.length);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const file = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "README.md");
  const before = fs.readFileSync(file, "utf8");
  const after = rewriteReadme(before);
  if (process.argv.includes("--check")) {
    if (before !== after) {
      process.stderr.write("README.md's configuration tables are out of date: run `npm run docs:config`.\n");
      process.exit(1);
    }
  } else if (before !== after) {
    fs.writeFileSync(file, after);
    process.stderr.write("README.md: configuration tables rewritten.\n");
  }
}
