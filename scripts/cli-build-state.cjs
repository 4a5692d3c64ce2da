/**
 * Whether the compiled CLI (dist/cli, scripts/build-cli.mjs) still matches its sources. Kept
 * free of imports beyond node:fs and node:path: bin/workbench.cjs loads it on every start.
 *
 * dist/cli/inputs.json holds `builtAt`, `inputs` (every first-party source in the build),
 * `entries` (per entry: `start`, the sources of the modules loaded before its code runs,
 * and `reachable`, the sources of every module it can load; `file`, its file in dist/cli, and
 * `format`, "cjs" for an entry bin/workbench.cjs requires; `packages`, the npm packages bundled
 * into that entry alone) and `packages` (the version of each npm package bundled into every
 * entry, rather than loaded from node_modules).
 *
 * CommonJS, like the bin: a start that goes through the ESM loader pays for it (see the bin).
 */
"use strict";
const fs = require("node:fs");
const path = require("node:path");

/** The build's manifest, or null when there is none (not built, or unreadable). */
function readCliManifest(root) {
  try {
    return JSON.parse(fs.readFileSync(path.join(root, "dist", "cli", "inputs.json"), "utf8"));
  } catch {
    return null;
  }
}

/** No file of `files` changed after the build (a missing one counts as changed). */
function sourcesCurrent(root, manifest, files) {
  try {
    return files.every((f) => fs.statSync(path.join(root, f)).mtimeMs <= manifest.builtAt);
  } catch {
    return false;
  }
}

/** Each of these npm packages (name → version) still has the version it was bundled at (npm keeps no useful mtimes). */
function packagesCurrent(root, packages) {
  try {
    return Object.entries(packages ?? {}).every(([name, version]) => JSON.parse(fs.readFileSync(path.join(root, "node_modules", name, "package.json"), "utf8")).version === version);
  } catch {
    return false;
  }
}

/** The packages bundled into every entry (commander) are those the build bundled. */
function bundledPackagesCurrent(root, manifest) {
  return packagesCurrent(root, manifest.packages);
}

/** The whole build is current: every source and bundled package (what setup checks). */
function cliBuildIsCurrent(root) {
  const m = readCliManifest(root);
  return (
    m !== null &&
    Array.isArray(m.inputs) &&
    typeof m.entries === "object" &&
    bundledPackagesCurrent(root, m) &&
    Object.values(m.entries).every((e) => packagesCurrent(root, e.packages)) &&
    sourcesCurrent(root, m, m.inputs)
  );
}

module.exports = { readCliManifest, sourcesCurrent, packagesCurrent, bundledPackagesCurrent, cliBuildIsCurrent };
