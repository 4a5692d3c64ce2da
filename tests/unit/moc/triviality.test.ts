import { afterAll, describe, expect, it } from "vitest";
import { buildPack } from "../../../lib/moc/walk";
import { ACKNOWLEDGMENT, ACTION_KEYWORDS, checkTriviality } from "../../../lib/moc/triviality";
import { KbBuilder } from "../../helpers/kb-builder";
import { removeTempDirs } from "../../helpers/project-builder";

afterAll(removeTempDirs);

const MARKER = "<!-- context-loader:v1 -->";

/** The seed's list, written out again so a change to the lib's list is caught. */
const SEED_KEYWORDS = [
  "add", "fix", "build", "change", "refactor", "implement", "design", "plan", "debug",
  "investigate", "review", "explain", "why", "how", "can", "ship", "merge", "deploy",
];

function reasonOf(prompt: string): string | null {
  const t = checkTriviality(prompt);
  return t.trivial ? t.reason : null;
}

describe("triviality gate: short prompts", () => {
  it("exports exactly the seed's 18 action keywords", () => {
    expect([...ACTION_KEYWORDS].sort()).toEqual([...SEED_KEYWORDS].sort());
    expect(ACTION_KEYWORDS).toHaveLength(18);
  });

  it.each(["hello there", "the login page", "one two three four five", "looks good to me", "hmm", "   spaced   out   words   "])(
    "%j (≤5 words, no action keyword) is trivial",
    (prompt) => {
      const t = checkTriviality(prompt);
      expect(t.trivial).toBe(true);
      expect(reasonOf(prompt)).toMatch(/word.*no action keyword/);
    },
  );

  it("counts words of the trimmed prompt", () => {
    expect(reasonOf("  one two three four five  ")).toBe("prompt is 5 words with no action keyword");
    expect(reasonOf("hello")).toBe("prompt is 1 word with no action keyword");
  });

  it.each(SEED_KEYWORDS)("a ≤5-word prompt with the keyword %j is not trivial", (kw) => {
    expect(checkTriviality(`${kw} the login page`)).toEqual({ trivial: false });
    expect(checkTriviality(kw)).toEqual({ trivial: false });
    // Case and punctuation around the word do not hide it.
    expect(checkTriviality(`${kw.toUpperCase()}?`)).toEqual({ trivial: false });
  });

  it.each([
    "fixing the login page",
    "fixed login",
    "fixes pending",
    "adding exports",
    "added retries",
    "builds broken",
    "building docs",
    "planned work",
    "planning sprint",
    "debugging prod",
    "shipped yet?",
    "shipping today",
    "merged upstream",
    "deployed twice",
    "deploying now",
    "reviewed PR",
    "explained already",
    "implemented exports",
    "refactoring sessions",
    "designs approved",
  ])("regular inflection %j keeps a short prompt non-trivial", (prompt) => {
    expect(checkTriviality(prompt)).toEqual({ trivial: false });
  });

  // "change", "merge" and "investigate" drop their final e before -ing; the gate's
  // inflection rule only appends suffixes, so these are gated as trivial.
  it.each(["changing the login flow", "merging the release branch", "investigating slow checkout"])(
    "e-dropping inflection %j keeps a short prompt non-trivial",
    (prompt) => {
      expect(checkTriviality(prompt)).toEqual({ trivial: false });
    },
  );

  it("a keyword only as part of another word does not count", () => {
    // "canvas" contains "can", "however" contains "how", "address" contains "add".
    expect(checkTriviality("canvas however address")).toMatchObject({ trivial: true });
  });

  it.each(["the login page looks broken today", "sessions expire after five minutes on staging", "one two three four five six"])(
    "%j (6+ words, no keyword) is not trivial",
    (prompt) => {
      expect(checkTriviality(prompt)).toEqual({ trivial: false });
    },
  );
});

describe("triviality gate: acknowledgments", () => {
  it.each(["thanks", "ok", "continue", "yes", "no", "sure", "got it", "Thanks.", "OK", "Ok.", "YES.", "Got It", "got it.", "  sure  ", "CONTINUE."])(
    "%j is a pure acknowledgment",
    (prompt) => {
      expect(reasonOf(prompt)).toBe(`prompt is a pure acknowledgment ("${prompt.trim()}")`);
    },
  );

  it("the regex is the seed's", () => {
    expect(ACKNOWLEDGMENT.source).toBe("^(thanks|ok|continue|yes|no|sure|got it)\\.?$");
    expect(ACKNOWLEDGMENT.flags).toContain("i");
  });

  it.each(["thanks!!", "ok..", "no way", "thanks a lot"])("%j is not an acknowledgment (but may be short)", (prompt) => {
    const r = reasonOf(prompt);
    expect(r ?? "").not.toContain("acknowledgment");
  });

  it("an acknowledgment-like prompt with more words and a keyword is not trivial", () => {
    expect(checkTriviality("ok, now fix the failing webhook retry test")).toEqual({ trivial: false });
  });
});

describe("triviality gate: meta-questions", () => {
  it.each(["what model are you", "which claude is this", "What model are you running on?", "who made you", "are you claude", "which model is this, really?"])(
    "%j is a meta-question",
    (prompt) => {
      expect(reasonOf(prompt)).toMatch(/^prompt is a meta-question about the agent/);
    },
  );

  it("a meta-question longer than 5 words is still trivial", () => {
    const prompt = "which claude version are you running here exactly";
    expect(prompt.split(" ").length).toBeGreaterThan(5);
    expect(reasonOf(prompt)).toMatch(/meta-question/);
  });

  // A project question that merely contains "which model" is not a question about the
  // agent; the seed forbids widening the gate ("do not expand the triviality rules").
  it("a project question that mentions 'which model' is not trivial", () => {
    expect(checkTriviality("how can we fix which model the pricing engine loads")).toEqual({ trivial: false });
  });
});

describe("trivial packs", () => {
  it("is byte-exact and reads no file", async () => {
    const kb = new KbBuilder().tree({ sections: [{ name: "thanks", hook: "thanks ok continue", files: [{ name: "thanks.md", hook: "thanks" }] }] });
    const r = await kb.pack("thanks");
    expect(r.pack).toBe(`${MARKER}\n# Context pack\n\nTrivial: yes\nReason: prompt is a pure acknowledgment ("thanks")\n`);
    expect(r.kb.stats.filesRead).toBe(0);
    expect(r.kb.stats.reads).toEqual([]);
    expect(r.walk.trivial).toEqual({ reason: 'prompt is a pure acknowledgment ("thanks")' });
  });

  it("short prompt: byte-exact, no reads", async () => {
    const kb = new KbBuilder().tree({ sections: [] });
    const r = await kb.pack("the login page");
    expect(r.pack).toBe(`${MARKER}\n# Context pack\n\nTrivial: yes\nReason: prompt is 3 words with no action keyword\n`);
    expect(r.kb.stats.filesRead).toBe(0);
  });

  it("meta-question: byte-exact, no reads", async () => {
    const kb = new KbBuilder().tree({ sections: [] });
    const r = await kb.pack("what model are you");
    expect(r.pack).toBe(`${MARKER}\n# Context pack\n\nTrivial: yes\nReason: prompt is a meta-question about the agent ("what model are you")\n`);
    expect(r.kb.stats.filesRead).toBe(0);
  });

  it("the gate runs before the root is read: a trivial prompt on a missing KB is trivial, not an error", async () => {
    const kb = new KbBuilder(); // no docs/ at all
    const r = await kb.pack("ok");
    expect(r.pack).toBe(`${MARKER}\n# Context pack\n\nTrivial: yes\nReason: prompt is a pure acknowledgment ("ok")\n`);
    expect(r.kb.stats.filesRead).toBe(0);
  });

  it("the trivial pack is the marker plus exactly one Reason line, even for a multi-line prompt", async () => {
    const r = await buildPack((await new KbBuilder().tree({}).source()), "which claude\nis this");
    const lines = r.pack.split("\n");
    expect(lines.slice(0, 4)).toEqual([MARKER, "# Context pack", "", "Trivial: yes"]);
    expect(lines[4]).toMatch(/^Reason: /);
    // Marker, title, blank, Trivial, Reason, and the final empty string after "\n".
    expect(lines).toHaveLength(6);
  });

  it("a non-trivial prompt reads the root", async () => {
    const kb = new KbBuilder().tree({ sections: [{ name: "api", hook: "http api" }] });
    const r = await kb.pack("fix it");
    expect(r.pack).toContain("Trivial: no");
    expect(r.kb.stats.reads[0]).toBe("_index.md");
  });
});
