import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { listMigrations, migrateSqlite, migrationNames } from "../../lib/db/migrate";
import { deleteProject, findProjectByRoot, getProject, upsertProject } from "../../lib/db/repositories/projects";
import { addProject } from "../../lib/projects/add-project";
import { indexFolder, rowCounts } from "../helpers/db";
import { ProjectBuilder, makeTempDir, removeTempDirs } from "../helpers/project-builder";

afterAll(removeTempDirs);

describe("migrations", () => {
  it("both kinds list the same migrations, in name order, with checksums", async () => {
    const sqlite = await listMigrations("sqlite");
    const pg = await listMigrations("postgres");
    expect(sqlite.length).toBeGreaterThan(0);
    expect(pg.map((m) => m.name)).toEqual(sqlite.map((m) => m.name));
    expect(sqlite.map((m) => m.name)).toEqual([...sqlite.map((m) => m.name)].sort());
    expect(sqlite.every((m) => /^[0-9a-f]{64}$/.test(m.checksum) && m.sql.length > 0)).toBe(true);
  });

  it("migrateSqlite applies each migration once", async () => {
    const file = path.join(makeTempDir("wb-migrate-"), "nested", "m.db");
    const names = migrationNames("sqlite");
    expect(await migrateSqlite(file)).toEqual(names);
    expect(fs.existsSync(file)).toBe(true);
    expect(await migrateSqlite(file)).toEqual([]);
  });
});

describe("projects", () => {
  it("adding the same folder twice gives the same project; deleting removes its indexed data only", async () => {
    const b = new ProjectBuilder().workState("P-1", { type: "epic", status: "in_progress" });
    const a = await addProject({ path: b.root });
    const again = await addProject({ path: `${b.root}/./`, name: "other name" });
    expect(again.id).toBe(a.id);
    expect(a.name).toBe(path.basename(b.root));
    expect((await findProjectByRoot(fs.realpathSync(b.root)))?.id).toBe(a.id);
    await indexFolder(b.root);
    expect((await rowCounts(a.id)).topics).toBe(1);
    expect((await getProject(a.id)).topicCount).toBe(1);
    await deleteProject(a.id);
    expect(await rowCounts(a.id)).toEqual({ topics: 0, topicSources: 0, documents: 0, sourceFiles: 0, warnings: 0, branches: 0, commits: 0 });
    expect(fs.existsSync(b.abs(".claude/work/P-1/state.json"))).toBe(true);
    await expect(getProject(a.id)).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(deleteProject(a.id)).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("refuses a path that is not a folder", async () => {
    const b = new ProjectBuilder().file("file.txt", "x");
    await expect(addProject({ path: b.abs("file.txt") })).rejects.toMatchObject({ code: "INVALID_INPUT" });
    await expect(addProject({ path: b.abs("missing") })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(upsertProject(fs.realpathSync(b.root), "x")).resolves.toMatchObject({ rootPath: fs.realpathSync(b.root), name: "x" });
  });
});
