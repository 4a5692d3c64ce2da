import { afterAll, describe, expect, it } from "vitest";
import { addProject } from "../../lib/projects/add-project";
import { removeView, savedViews, saveView } from "../../lib/views/service";
import { makeTempDir, removeTempDirs } from "../helpers/project-builder";

afterAll(removeTempDirs);

describe("saved views", () => {
  it("saves a filtered view per project and surface, replaces by name, and deletes", async () => {
    const p = await addProject({ path: makeTempDir() });
    const v = await saveView(p.id, { surface: "inventory", name: "In progress", path: `/projects/${p.id}/topics?status=in_progress` });
    await saveView(p.id, { surface: "search", name: "Exports", path: `/search?q=export&project=${p.id}` });
    await saveView(p.id, { surface: "inventory", name: "In progress", path: `/projects/${p.id}/topics?status=in_progress&source=work` });
    expect((await savedViews(p.id, "inventory")).map((x) => [x.name, x.path])).toEqual([["In progress", `/projects/${p.id}/topics?status=in_progress&source=work`]]);
    expect(await savedViews(p.id)).toHaveLength(2);
    await removeView(p.id, (await savedViews(p.id, "inventory"))[0]!.id);
    expect(await savedViews(p.id, "inventory")).toEqual([]);
    await expect(removeView(p.id, v.id)).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("refuses a path outside the Workbench or another project's view", async () => {
    const p = await addProject({ path: makeTempDir() });
    const q = await addProject({ path: makeTempDir() });
    for (const path of ["https://evil.example/x", "//evil.example/x", "javascript:alert(1)", "/projects/x\\..\\y"]) {
      await expect(saveView(p.id, { surface: "inventory", name: "x", path })).rejects.toThrow(/path/);
    }
    await expect(saveView(p.id, { surface: "inventory", name: "x", path: `/projects/${q.id}/topics` })).rejects.toThrow(/not a inventory view of this project/);
    await expect(saveView(p.id, { surface: "search", name: "x", path: `/search?q=a&project=${q.id}` })).rejects.toThrow(/path/);
    await expect(saveView(p.id, { surface: "proposals", name: " ", path: `/projects/${p.id}/memory` })).rejects.toThrow(/name/);
    // Another project's views are not visible from this one.
    await saveView(q.id, { surface: "proposals", name: "Pending", path: `/projects/${q.id}/memory?state=pending` });
    expect(await savedViews(p.id)).toEqual([]);
    await expect(removeView(p.id, (await savedViews(q.id))[0]!.id)).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
