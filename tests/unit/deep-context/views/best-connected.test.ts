import { describe, expect, it } from "vitest";
import { bestConnected } from "../../../../lib/deep-context/views/run-view";
import { mulberry32 } from "../../../helpers/prng";

describe("bestConnected (the coverage graph nodes drawn for a large run)", () => {
  it("takes the nodes with the most edges, ties in graph order, as a stable sort by degree does", () => {
    const rand = mulberry32(3);
    const nodes = Array.from({ length: 2_000 }, (_, i) => ({ id: `n${i}` }));
    const degree = new Map<string, number>();
    // Few distinct degrees, so most comparisons are ties; some nodes have no entry (degree 0).
    for (const n of nodes) if (rand() < 0.9) degree.set(n.id, Math.floor(rand() * 5));
    const expected = [...nodes].sort((a, b) => (degree.get(b.id) ?? 0) - (degree.get(a.id) ?? 0)).slice(0, 600);
    expect(bestConnected(nodes, degree, 600)).toEqual(expected);
    expect(bestConnected(nodes.slice(0, 10), degree, 600)).toEqual([...nodes.slice(0, 10)].sort((a, b) => (degree.get(b.id) ?? 0) - (degree.get(a.id) ?? 0)));
  });
});
