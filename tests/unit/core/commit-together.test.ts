import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { prepareFileAtomic } from "../../../lib/core/fs/atomic-write";
import { commitTogether, recoverCommits } from "../../../lib/core/fs/commit-together";
import { makeTempDir, removeTempDirs } from "../../helpers/project-builder";

afterAll(removeTempDirs);

const FILES = ["a.json", "b.md"];
/** A process id no process has (beyond Linux's pid_max). */
const DEAD = 4_194_400;

function folder(): string {
  const dir = makeTempDir("wb-commit-");
  fs.writeFileSync(path.join(dir, "a.json"), "old a");
  fs.writeFileSync(path.join(dir, "b.md"), "old b");
  return dir;
}
const read = (dir: string) => Object.fromEntries(fs.readdirSync(dir).map((n) => [n, fs.lstatSync(path.join(dir, n)).isSymbolicLink() ? "link" : fs.readFileSync(path.join(dir, n), "utf8")]));

describe("commitTogether / recoverCommits", () => {
  it("renames every prepared write and leaves no record", () => {
    const dir = folder();
    commitTogether(dir, [prepareFileAtomic(path.join(dir, "a.json"), (w) => w("new a")), prepareFileAtomic(path.join(dir, "b.md"), (w) => w("new b"))]);
    expect(read(dir)).toEqual({ "a.json": "new a", "b.md": "new b" });
  });

  it("finishes the commit of a dead writer, and removes only dead writers' temps", () => {
    const dir = folder();
    fs.writeFileSync(path.join(dir, `b.md.tmp.${DEAD}.x.2`), "new b");
    fs.writeFileSync(
      path.join(dir, `.workbench-commit.${DEAD}.x.1`),
      `${JSON.stringify({
        renames: [
          [`a.json.tmp.${DEAD}.x.1`, "a.json"],
          [`b.md.tmp.${DEAD}.x.2`, "b.md"],
        ],
      })}\n`,
    );
    fs.writeFileSync(path.join(dir, `a.json.tmp.${DEAD}.y.3`), "half of a");
    fs.writeFileSync(path.join(dir, `a.json.tmp.${process.ppid}.y.4`), "a live writer's");
    recoverCommits(dir, FILES);
    expect(read(dir)).toEqual({ "a.json": "old a", "b.md": "new b", [`a.json.tmp.${process.ppid}.y.4`]: "a live writer's" });
  });

  it("a record cut short is removed without a rename; a live writer's record is left to it", () => {
    const dir = folder();
    fs.writeFileSync(path.join(dir, `b.md.tmp.${DEAD}.x.2`), "new b");
    fs.writeFileSync(path.join(dir, `.workbench-commit.${DEAD}.x.1`), `{"renames":[["b.md.tmp.${DEAD}.x.2","b.md"]]}`);
    const live = `.workbench-commit.${process.ppid}.x.1`;
    fs.writeFileSync(path.join(dir, live), `${JSON.stringify({ renames: [[`b.md.tmp.${DEAD}.x.2`, "b.md"]] })}\n`);
    recoverCommits(dir, FILES);
    expect(read(dir)).toEqual({ "a.json": "old a", "b.md": "old b", [live]: expect.any(String) });
  });

  it("a planted record renames nothing but its own files' temps, and never over a link", () => {
    const dir = folder();
    const outside = makeTempDir("wb-commit-outside-");
    fs.writeFileSync(path.join(outside, "secret"), "secret");
    fs.writeFileSync(path.join(dir, "notes.md"), "notes");
    fs.symlinkSync(path.join(outside, "secret"), path.join(dir, `a.json.tmp.${DEAD}.z.9`));
    for (const renames of [[["notes.md", "a.json"]], [[`../${path.basename(outside)}/secret`, "a.json"]], [[`b.md.tmp.${DEAD}.x`, "notes.md"]], [[`a.json.tmp.${DEAD}.z.9`, "a.json"]]]) {
      fs.writeFileSync(path.join(dir, `.workbench-commit.${DEAD}.p.1`), `${JSON.stringify({ renames })}\n`);
      recoverCommits(dir, FILES);
    }
    fs.rmSync(path.join(dir, "b.md"));
    fs.symlinkSync(path.join(outside, "secret"), path.join(dir, "b.md"));
    fs.writeFileSync(path.join(dir, `b.md.tmp.${DEAD}.x.2`), "new b");
    fs.writeFileSync(path.join(dir, `.workbench-commit.${DEAD}.p.2`), `${JSON.stringify({ renames: [[`b.md.tmp.${DEAD}.x.2`, "b.md"]] })}\n`);
    recoverCommits(dir, FILES);
    expect(read(dir)).toEqual({ "a.json": "old a", "b.md": "link", "notes.md": "notes", [`a.json.tmp.${DEAD}.z.9`]: "link" });
    expect(fs.readFileSync(path.join(outside, "secret"), "utf8")).toBe("secret");
  });
});
