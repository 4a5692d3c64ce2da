import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { MAX_FINDINGS_LIMIT, findingsFacets, findingsQuerySchema, queryFindings } from "../../../../lib/deep-context/views/findings-query";
import { ProjectFs } from "../../../../lib/core/project-fs";
import { packetFingerprint } from "../../../../lib/deep-context/run-cache";
import type { FindingRow } from "../../../../lib/deep-context/views/run-view";
import { findingRow } from "../../../helpers/finding-row";

const row = findingRow;

const ROWS: FindingRow[] = [
  row("u1", { agreement: 2, relevance: 0.9, producedBy: ["a", "b"], agreementEligible: true }),
  row("u2", { kind: "gap", bucket: "gaps", relevance: 0.7, firstIteration: 3 }),
  row("u3", { agreement: 2, relevance: 0.9, producedBy: ["b", "c"], contradicted: true, path: "lib/Zeta.ts" }),
  row("u4", { bucket: "lowConfidence", relevance: 0.2, droppedBelowGate: 0.5, firstIteration: 2 }),
  row("u5", { agreement: 3, relevance: 0.6, producedBy: ["a", "b", "c"], kind: "convention", bucket: "conventions" }),
];
const q = (input: Record<string, unknown> = {}) => findingsQuerySchema.parse(input);
const ids = (input: Record<string, unknown> = {}) => queryFindings(ROWS, q(input)).rows.map((r) => r.unit_id);

describe("queryFindings", () => {
  it("sorts by agreement then relevance by default, ties in registry order", () => {
    expect(ids()).toEqual(["u5", "u1", "u3", "u2", "u4"]);
    expect(ids({ sort: "relevance" })).toEqual(["u1", "u3", "u2", "u5", "u4"]);
    expect(ids({ sort: "firstIteration" })).toEqual(["u1", "u3", "u5", "u4", "u2"]);
    expect(ids({ sort: "path" })).toEqual(["u3", "u1", "u2", "u4", "u5"]);
  });

  it("filters by bucket, kind, executor, agreement, relevance, contradiction and text", () => {
    expect(ids({ bucket: "lowConfidence" })).toEqual(["u4"]);
    expect(ids({ kind: "gap" })).toEqual(["u2"]);
    expect(ids({ executor: "c" })).toEqual(["u5", "u3"]);
    expect(ids({ minAgreement: "2" })).toEqual(["u5", "u1", "u3"]);
    expect(ids({ minRelevance: "0.65" })).toEqual(["u1", "u3", "u2"]);
    expect(ids({ contradicted: "1" })).toEqual(["u3"]);
    expect(ids({ q: "ZETA" })).toEqual(["u3"]);
    expect(ids({ q: "  u2 " })).toEqual(["u2"]);
    expect(ids({ executor: "b", minAgreement: 3 })).toEqual(["u5"]);
  });

  it("pages: matched counts every match, rows are the window", () => {
    const page = queryFindings(ROWS, q({ offset: "1", limit: "2" }));
    expect(page).toMatchObject({ matched: 5, offset: 1 });
    expect(page.rows.map((r) => r.unit_id)).toEqual(["u1", "u3"]);
    expect(queryFindings(ROWS, q({ offset: 10 })).rows).toEqual([]);
  });

  it("rejects bad parameters by name", () => {
    expect(() => q({ limit: MAX_FINDINGS_LIMIT + 1 })).toThrow(/limit/i);
    expect(findingsQuerySchema.safeParse({ sort: "random" }).error?.issues[0]?.path).toEqual(["sort"]);
    expect(findingsQuerySchema.safeParse({ minRelevance: "2" }).error?.issues[0]?.path).toEqual(["minRelevance"]);
    expect(findingsQuerySchema.safeParse({ offset: "-1" }).error?.issues[0]?.path).toEqual(["offset"]);
  });

  it("counts facets over every finding", () => {
    expect(findingsFacets(ROWS)).toEqual({
      total: 5,
      buckets: [
        { name: "reuseCandidates", count: 2 },
        { name: "gaps", count: 1 },
        { name: "lowConfidence", count: 1 },
        { name: "conventions", count: 1 },
      ],
      kinds: [
        { name: "convention", count: 1 },
        { name: "gap", count: 1 },
        { name: "reuse_candidate", count: 3 },
      ],
    });
  });
});

describe("packetFingerprint", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wb-fp-"));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("changes when a file of the packet is appended to, added or removed, and not otherwise", () => {
    fs.mkdirSync(path.join(dir, "context/seats/iter-001"), { recursive: true });
    fs.writeFileSync(path.join(dir, "context/deep-context-state.jsonl"), '{"type":"config"}\n');
    const pfs = ProjectFs.openSync(dir);
    const a = packetFingerprint(pfs, "");
    expect(packetFingerprint(pfs, "")).toBe(a);
    fs.appendFileSync(path.join(dir, "context/deep-context-state.jsonl"), '{"type":"iteration","run":1}\n');
    const b = packetFingerprint(pfs, "");
    expect(b).not.toBe(a);
    fs.writeFileSync(path.join(dir, "context/seats/iter-001/x.json"), "[]");
    const c = packetFingerprint(pfs, "");
    expect(c).not.toBe(b);
    fs.rmSync(path.join(dir, "context/seats/iter-001/x.json"));
    expect(packetFingerprint(pfs, "")).toBe(b);
    expect(packetFingerprint(pfs, "missing")).toBe("");
  });
});
