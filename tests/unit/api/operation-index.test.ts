import { describe, expect, it } from "vitest";
import { openApiDocument } from "@/lib/api/openapi";
import { filterWords, matchesFilter, operationGroups } from "@/lib/api/operation-index";
import { API_ROUTE_GROUPS } from "@/lib/api/routes";

const groups = operationGroups(openApiDocument(), API_ROUTE_GROUPS);
const all = groups.flatMap((g) => g.operations);
const find = (filter: string) => all.filter((o) => matchesFilter(o, filterWords(filter))).map((o) => o.operationId);

describe("operationGroups", () => {
  it("lists every operation of the document once, in the page's group order", () => {
    const doc = openApiDocument();
    const ids = Object.values(doc.paths).flatMap((ops) => Object.values(ops).map((op) => op.operationId));
    expect(all.map((o) => o.operationId).sort()).toEqual([...ids].sort());
    expect(new Set(all.map((o) => o.operationId)).size).toBe(all.length);
    const order = API_ROUTE_GROUPS.map((g) => g.tag);
    expect(groups.map((g) => order.indexOf(g.tag))).toEqual([...groups.map((g) => order.indexOf(g.tag))].sort((a, b) => a - b));
    expect(groups.every((g) => g.operations.length > 0)).toBe(true);
  });

  it("keeps each operation's method, path and summary for the contents", () => {
    const add = all.find((o) => o.operationId === "addProject")!;
    expect(add).toMatchObject({ method: "post", path: "/api/v1/projects" });
    expect(add.summary.length).toBeGreaterThan(0);
  });
});

describe("matchesFilter", () => {
  it("matches everything when the filter is empty or blank", () => {
    expect(find("")).toHaveLength(all.length);
    expect(find("   ")).toHaveLength(all.length);
  });

  it("needs every word, in any order and case", () => {
    expect(find("POST projects")).toContain("addProject");
    expect(find("projects post")).toContain("addProject");
    expect(find("post projects")).not.toContain("listProjects");
    expect(find("addproject")).toEqual(["addProject"]);
  });

  it("looks in parameter names and the group's title", () => {
    const cursorOps = find("cursor");
    expect(cursorOps.length).toBeGreaterThan(0);
    for (const id of cursorOps) expect(all.find((o) => o.operationId === id)!.haystack).toContain("cursor");
    const mcp = groups.find((g) => g.tag === "mcp")!;
    expect(find(mcp.title)).toEqual(expect.arrayContaining(mcp.operations.map((o) => o.operationId)));
  });

  it("finds nothing for words no operation has", () => {
    expect(find("zebra-unicorn")).toEqual([]);
  });
});
