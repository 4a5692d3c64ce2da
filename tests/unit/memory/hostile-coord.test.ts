/**
 * A hostile `.coord/` folder (tests/helpers/hostile-repo.ts plus a few files of our own): every
 * trap becomes an issue naming the file and why, the rest of the folder is still read, nothing
 * outside the project is read, and nothing is written outside it.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { WorkbenchError } from "../../../lib/core/errors";
import { ProjectFs } from "../../../lib/core/project-fs";
import { applyProposal } from "../../../lib/memory/apply";
import { readCoord, type CoordSnapshot } from "../../../lib/memory/coord";
import { decideProposalFile } from "../../../lib/memory/decide";
import { LOCK_FILE, acquireLock, breakStaleLock } from "../../../lib/memory/lock";
import { parseMemoryText } from "../../../lib/memory/memory-file";
import { createPacketFile } from "../../../lib/memory/packet-file";
import { type HostileRepo, buildHostileRepo, treeDigest } from "../../helpers/hostile-repo";
import { removeTempDirs } from "../../helpers/project-builder";
import { ADD_ID, KEY_ID, SECRET, SUPERSEDE_ID, keys, projectPolicy } from "./helpers";
import { sha256Hex } from "../../../lib/memory/canonical-json";

afterAll(removeTempDirs);
afterEach(() => vi.restoreAllMocks());

/** Every file created (opened with "wx") while `fn` runs, by the real folder it was created in. */
async function createdIn(fn: () => Promise<unknown>): Promise<string[]> {
  const open = fs.openSync.bind(fs);
  const folders: string[] = [];
  vi.spyOn(fs, "openSync").mockImplementation(((p: fs.PathLike, flags?: fs.OpenMode, mode?: fs.Mode) => {
    if (flags === "wx") folders.push(fs.realpathSync(path.dirname(String(p))));
    return open(p, flags ?? "r", mode);
  }) as typeof fs.openSync);
  await fn().catch(() => undefined);
  return folders;
}

/** The sample's policy, pinning the test key, in a hostile repo. */
function pinKey(root: string): void {
  const p = path.join(root, ".coord", "policy.json");
  const policy = JSON.parse(fs.readFileSync(p, "utf8"));
  policy.human_authorization.key_hashes = { [KEY_ID]: sha256Hex(SECRET) };
  fs.writeFileSync(p, JSON.stringify(policy, null, 2) + "\n");
}

const issuesOf = (snap: CoordSnapshot, file: string) => snap.errors.filter((e) => e.file === file);

describe("a hostile .coord folder", () => {
  let repo: HostileRepo;
  let snap: CoordSnapshot;
  let ms = 0;
  const coord = (rel: string) => path.join(repo.root, ".coord", rel);

  beforeAll(async () => {
    repo = buildHostileRepo({ traps: ["deep-json", "fifo", "link-out-file", "binary"], logLines: 10, hugeBytes: 1024 });
    // The traps put nothing binary or mis-encoded in .coord: these do.
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 1, 2, 3]);
    fs.writeFileSync(coord("memory-proposals/binary.json"), png);
    fs.writeFileSync(coord("checkpoints/binary.json"), png);
    fs.writeFileSync(coord("memory-proposals/latin1.json"), Buffer.concat([Buffer.from('{"schema_version": 1, "note": "caf'), Buffer.from([0xe9, 0xff]), Buffer.from('"}')]));
    execFileSync("mkfifo", [coord("checkpoints/pipe.json")]);
    fs.symlinkSync(path.join(repo.outside, "secret-state.json"), coord("checkpoints/leak.json"));
    fs.symlinkSync(path.join(repo.outside, "secret.md"), coord("context_007.md"));
    const t0 = Date.now();
    snap = await readCoord(repo.root);
    ms = Date.now() - t0;
  });

  it("names every trap with its reason, in a bounded time", () => {
    expect(ms).toBeLessThan(10_000);
    const reason = (file: string) => issuesOf(snap, file).map((e) => e.reason);
    expect(reason(".coord/checkpoints/deep-nest.json")).toEqual(["too_deep"]);
    expect(reason(".coord/memory-proposals/deep-nest.json")).toEqual(["too_deep"]);
    expect(reason(".coord/memory-proposals/fifo.json")).toEqual(["not_regular"]);
    expect(reason(".coord/checkpoints/pipe.json")).toEqual(["not_regular"]);
    expect(reason(".coord/memory-proposals/leak.json")).toEqual(["outside_root"]);
    expect(reason(".coord/checkpoints/leak.json")).toEqual(["outside_root"]);
    expect(reason(".coord/context_007.md")).toEqual(["outside_root"]);
    expect(reason(".coord/memory-proposals/binary.json")).toEqual(["binary"]);
    expect(reason(".coord/checkpoints/binary.json")).toEqual(["binary"]);
    expect(issuesOf(snap, ".coord/memory-proposals/fifo.json")[0]!.message).toBe(".coord/memory-proposals/fifo.json: a named pipe; not read.");
    expect(issuesOf(snap, ".coord/checkpoints/deep-nest.json")[0]!.message).toBe(".coord/checkpoints/deep-nest.json: nested deeper than 256 levels; not read.");
    // Invalid UTF-8 is read (U+FFFD) with a warning, then checked like any other proposal.
    const latin = issuesOf(snap, ".coord/memory-proposals/latin1.json");
    expect(latin[0]).toMatchObject({ reason: "invalid_utf8", severity: "warning", message: expect.stringContaining("not valid UTF-8 at byte 34") });
    expect(latin.slice(1).some((e) => e.field === "proposal_id")).toBe(true);
  });

  it("still reads everything else", () => {
    expect(snap.proposals.map((p) => p.proposal.proposal_id).sort()).toEqual([ADD_ID, SUPERSEDE_ID].sort());
    expect(snap.checkpoints.map((c) => c.file)).toEqual([".coord/checkpoints/define-auth-contract.json"]);
    expect(snap.policies.map((p) => p.file)).toEqual([".coord/policy.json"]);
    expect(snap.memory?.events.map((e) => e.event_id)).toEqual(["M1", "M2"]);
  });

  it("never reads a file outside the project", () => {
    expect(JSON.stringify(snap)).not.toContain(repo.secret);
    expect(JSON.stringify(snap)).not.toContain("Leak ");
  });
});

describe("memory.yml built to exhaust the parser", () => {
  const valid = "schema_version: 2\nproject: p\ncreated_at: '2026-01-01T00:00:00Z'\nevents: []\n";

  it.each([
    ["flow brackets", `schema_version: 2\nnest: ${"[".repeat(5000)}${"]".repeat(5000)}\n`],
    ["a dash per level", `schema_version: 2\nnest:\n  ${"- ".repeat(5000)}x\n`],
    ["indented mappings", `schema_version: 2\n${Array.from({ length: 5000 }, (_, i) => `${" ".repeat(i)}k${i}:`).join("\n")} x\n`],
  ])("refuses nesting deeper than 256 (%s) with a clear error, not a stack overflow", (_label, text) => {
    const t0 = Date.now();
    const p = parseMemoryText(text);
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(p.errors).toEqual([{ file: ".coord/memory.yml", message: ".coord/memory.yml: nested deeper than 256 levels; not read (a memory log is a flat list of events)." }]);
    expect(p.doc).toBeNull();
  });

  it("refuses an alias bomb quickly, naming it", () => {
    const lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 10; i++)
      lines.push(
        `a${i}: &a${i} [${Array(10)
          .fill(`*a${i - 1}`)
          .join(",")}]`,
      );
    const t0 = Date.now();
    const p = parseMemoryText(lines.join("\n") + "\n");
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(p.errors).toEqual([{ file: ".coord/memory.yml", message: expect.stringContaining("Excessive alias count") }]);
    expect(parseMemoryText(valid).errors).toEqual([]);
  });

  it("leaves the rest of the desk readable", async () => {
    const repo = buildHostileRepo({ traps: [] });
    fs.writeFileSync(path.join(repo.root, ".coord/memory.yml"), `schema_version: 2\nevents: ${"[".repeat(20_000)}${"]".repeat(20_000)}\n`);
    const snap = await readCoord(repo.root);
    expect(snap.errors[0]!.message).toBe(".coord/memory.yml: nested deeper than 256 levels; not read (a memory log is a flat list of events).");
    // What follows from having no events: the supersede proposal's target is not found.
    expect(snap.errors.slice(1).map((e) => e.field)).toEqual(["action.target_ref"]);
    expect(snap.proposals).toHaveLength(2);
    expect(snap.checkpoints).toHaveLength(1);
  });
});

describe("locks that are not lock files", () => {
  it("a named pipe or a link out as a lock is an issue on the desk, never a hang or a read outside", async () => {
    const repo = buildHostileRepo({ traps: ["link-out-file"] });
    execFileSync("mkfifo", [path.join(repo.root, LOCK_FILE)]);
    fs.symlinkSync(path.join(repo.outside, "secret.md"), path.join(repo.root, `.coord/memory-proposals/${ADD_ID}.json.lock`));
    const snap = await readCoord(repo.root);
    expect(snap.lock).toBeNull();
    expect(issuesOf(snap, LOCK_FILE)).toEqual([expect.objectContaining({ reason: "not_regular" })]);
    expect(issuesOf(snap, `.coord/memory-proposals/${ADD_ID}.json.lock`)).toEqual([expect.objectContaining({ reason: "outside_root" })]);
    expect(JSON.stringify(snap)).not.toContain(repo.secret);
    expect(() => breakStaleLock(ProjectFs.openSync(repo.root), LOCK_FILE)).toThrow(expect.objectContaining({ code: "UNREADABLE" }));
  });

  it("an apply refuses a memory lock that is a link, without reading its target", async () => {
    const repo = buildHostileRepo({ traps: ["link-out-file"] });
    pinKey(repo.root);
    await decideProposalFile(repo.root, SUPERSEDE_ID, { decision: "approve", rationale: "ok", keyId: KEY_ID }, { keys, policy: projectPolicy(repo.root) });
    const before = treeDigest(repo.outside);
    fs.symlinkSync(path.join(repo.outside, "secret.md"), path.join(repo.root, LOCK_FILE));
    const err = await applyProposal(repo.root, SUPERSEDE_ID, { keys, policy: projectPolicy(repo.root), taskId: "t" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WorkbenchError);
    expect(err).toMatchObject({ code: "UNSAFE_PATH", message: ".coord/memory.yml.lock is a link; it is not written through." });
    expect((err as Error).message).not.toContain(repo.secret);
    expect(treeDigest(repo.outside)).toEqual(before);
  });
});

describe("a proposals folder that links out of the project", () => {
  it("a decision creates no lock there (nor anything else) and is refused", async () => {
    const repo = buildHostileRepo({ traps: [] });
    pinKey(repo.root);
    const proposals = path.join(repo.root, ".coord/memory-proposals");
    fs.renameSync(proposals, path.join(repo.outside, "proposals"));
    fs.symlinkSync(path.join(repo.outside, "proposals"), proposals);
    const before = treeDigest(repo.outside);
    const decide = () => decideProposalFile(repo.root, ADD_ID, { decision: "decline", rationale: "no", keyId: KEY_ID }, { keys, policy: projectPolicy(repo.root) });
    await expect(decide()).rejects.toMatchObject({ code: "UNSAFE_PATH" });
    const outside = fs.realpathSync(repo.outside);
    expect((await createdIn(decide)).filter((d) => d.startsWith(outside))).toEqual([]);
    expect(treeDigest(repo.outside)).toEqual(before);
  });
});

describe("writes into a .coord that links out of the project", () => {
  let repo: HostileRepo;
  let before: Record<string, string>;
  const outsideCoord = () => path.join(repo.outside, "coord");

  beforeAll(() => {
    repo = buildHostileRepo({ traps: [] });
    pinKey(repo.root);
    // The project's own .coord, moved outside and linked back in.
    fs.renameSync(path.join(repo.root, ".coord"), outsideCoord());
    fs.symlinkSync(outsideCoord(), path.join(repo.root, ".coord"));
    before = treeDigest(repo.outside);
  });

  it("a packet is refused with UNSAFE_PATH and nothing is written outside", () => {
    expect(() => createPacketFile(ProjectFs.openSync(repo.root), "# Context packet — x\n")).toThrow(
      expect.objectContaining({ code: "UNSAFE_PATH", message: ".coord: the folder links outside the project; nothing is written there." }),
    );
    expect(treeDigest(repo.outside)).toEqual(before);
  });

  it("a decision and an apply are refused and write nothing outside", async () => {
    await expect(decideProposalFile(repo.root, ADD_ID, { decision: "decline", rationale: "no", keyId: KEY_ID }, { keys, policy: projectPolicy(repo.root) })).rejects.toMatchObject({ code: "UNSAFE_PATH" });
    await expect(applyProposal(repo.root, ADD_ID, { keys, policy: projectPolicy(repo.root), taskId: "t" })).rejects.toMatchObject({ code: "UNSAFE_PATH" });
    expect(treeDigest(repo.outside)).toEqual(before);
  });

  it("a lock is never created there", () => {
    expect(() => acquireLock(ProjectFs.openSync(repo.root), LOCK_FILE, { taskId: "t", proposalId: ADD_ID })).toThrow(expect.objectContaining({ code: "UNSAFE_PATH" }));
    expect(treeDigest(repo.outside)).toEqual(before);
  });
});
