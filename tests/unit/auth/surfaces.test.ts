/**
 * Static guards for team mode's surfaces that have no runtime test of their own per file: every
 * page resolves who is asking, and there are no server actions (which would be an ungated
 * surface: app/api/v1/_lib/handler.ts gates routes only).
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../helpers/project-builder";

function files(dir: string, keep: (f: string) => boolean): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === "node_modules" || e.name === "generated" ? [] : files(p, keep);
    return keep(p) ? [p] : [];
  });
}

const rel = (f: string) => path.relative(REPO_ROOT, f);

describe("team mode surfaces", () => {
  it("has no server actions", () => {
    const sources = ["app", "components", "lib"].flatMap((d) => files(path.join(REPO_ROOT, d), (f) => /\.(ts|tsx)$/.test(f)));
    const actions = sources.filter((f) => /^\s*["']use server["']/m.test(fs.readFileSync(f, "utf8"))).map(rel);
    expect(actions, "a server action must check the principal and role like the route handler builder does").toEqual([]);
  });

  it("checks the viewer on every page", () => {
    const pages = files(path.join(REPO_ROOT, "app"), (f) => f.endsWith("page.tsx"));
    expect(pages.length).toBeGreaterThan(15);
    const unchecked = pages
      .filter((f) => {
        const src = fs.readFileSync(f, "utf8");
        if (rel(f).startsWith(path.join("app", "projects", "[id]"))) return !/loadProject(Details)?Or404\(|pageProjectRole\(/.test(src);
        return !/pagePrincipal\(|pageVisibleProjects\(|pageProjectRole\(|viewer\(\)|readAuthConfig\(/.test(src);
      })
      .map(rel);
    expect(unchecked).toEqual([]);
  });
});
