import { afterAll, describe, expect, it } from "vitest";
import { buildPack } from "../../../lib/moc/walk";
import { ACKNOWLEDGMENT, ACTION_KEYWORDS, checkTriviality } from "../../../lib/moc/triviality";
import { KbBuilder } from "../../helpers/kb-builder";
import { removeTempDirs } from "../../helpers/project-builder";

afterAll(removeTempDirs);

const MARKER = "<!-- context-loader:v1 -->";

/** The seed's list, written out again so a change to the lib's list is caught. */
const SEED_KEYWORDS = ["add", "fix", "build", "change", "refactor", "implement", "design", "plan", "debug", "investigate", "review", "explain", "why", "how", "can", "ship", "merge", "deploy"];

function reasonOf(prompt: string): string | null {
  const t = checkTriviality(prompt);
  return t.trivial ? t.reason : null;
}

describe("triviality gate: short prompts", () => {
  it("exports exactly the seed's 18 action keywords", () => {
    expect([...ACTION_KEYWORDS].sort()).toEqual([...SEED_KEYWORDS].sort());
    expect(ACTION_KEYWORDS).toHaveLength(18);
  });

  it.each(["hello there", "the login page", "one two three four five", "looks good to me", "hmm", "   spaced   out   words   "])("%j (≤5 words, no action keyword) is trivial", (prompt) => {
    const t = checkTriviality(prompt);
    expect(t.trivial).toBe(true);
    expect(reasonOf(prompt)).toMatch(/word.*no action keyword/);
  });

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
  it.each(["changing the login flow", "merging the release branch", "investigating slow checkout"])("e-dropping inflection %j keeps a short prompt non-trivial", (prompt) => {
    expect(checkTriviality(prompt)).toEqual({ trivial: false });
  });

  it("a keyword only as part of another word does not count", () => {
    // "canvas" contains "can", "however" contains "how", "address" contains "add".
    expect(checkTriviality("canvas however address")).toMatchObject({ trivial: true });
  });

  it.each(["the login page looks broken today", "sessions expire after five minutes on staging", "one two three four five six"])("%j (6+ words, no keyword) is not trivial", (prompt) => {
    expect(checkTriviality(prompt)).toEqual({ trivial: false });
  });
});

describe("triviality gate: acknowledgments", () => {
  it.each(["thanks", "ok", "continue", "yes", "no", "sure", "got it", "Thanks.", "OK", "Ok.", "YES.", "Got It", "got it.", "  sure  ", "CONTINUE."])("%j is a pure acknowledgment", (prompt) => {
    expect(reasonOf(prompt)).toBe(`prompt is a pure acknowledgment ("${prompt.trim()}")`);
  });

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

/**
 * The seed, step 1, third rule, verbatim: "A pure meta-question about the agent itself (e.g.
 * "what model", "which claude")". Its own examples come first; the rest are the common ways
 * of asking the agent its model, version, name, maker or knowledge cutoff.
 */
const SEED_META_EXAMPLES = ["what model", "which claude"];

const META_QUESTIONS = [
  // issue 17's two phrasings that were walked
  "Which Claude are you, exactly, and what version?",
  "Can you tell me which model you're running on?",
  "what model are you",
  "which claude is this",
  "What model are you running on?",
  "who made you",
  "are you claude",
  "which model is this, really?",
  "What model is this?",
  "Which LLM powers this assistant?",
  "Is this GPT-4?",
  "What AI am I talking to?",
  "Who trained you?",
  "Which company made you?",
  "What's your knowledge cutoff?",
  "When is your training cutoff date?",
  "How recent is your training data?",
  "What's your context window?",
  "How big is your context window?",
  "Are you GPT-4 or Claude?",
  "Are you Claude Opus or Sonnet?",
  "Are you an AI?",
  "Are you a human or a bot?",
  "What version are you running?",
  "What version of Claude is this?",
  "Hey, quick question: what model are you?",
  "Out of curiosity, which LLM are you based on?",
  "Just curious — what model powers you?",
  "btw what model is this",
  "Which model are you, Claude or GPT?",
  "What is your model name and version?",
  "What's your name?",
  "Please tell me what model you are.",
  "Could you let me know which version of Claude you are?",
  "Do you know which model you are?",
  "Which model is answering me right now?",
  "I'm curious which model I'm chatting with",
  "What model am I talking to?",
  "Who are you, exactly?",
  "Who makes you?",
  "Which provider are you from?",
  "Are you running on GPT-4o?",
  "Which GPT are you?",
  "What LLM is behind you?",
  "What model do you run on?",
  "What's the model behind this chat?",
  "Which AI are you?",
  "Are you ChatGPT?",
  "Are you Gemini or Claude?",
  "what language model are you using under the hood",
  "Which company built this bot?",
  "Are you Claude 3.5 Sonnet or Claude 3 Opus?",
  "What’s your training data cutoff?",
  "what version of claude am i speaking with right now",
  "is this claude code or copilot",
  "what are you",
  "tell me about yourself",
];

/** Questions that mention a model as project content, or ask the meta-question and also ask for work. */
const PROJECT_QUESTIONS = [
  "which model should the billing service use for retries?",
  "upgrade the model in config.yaml to the latest release",
  "what model does the retry service call when it times out",
  "explain the billing model and how invoices are prorated",
  "the data model for orders needs a new status column",
  "which model version is pinned in the embeddings config file",
  "what model are you going to use for the summarization job",
  "are you claude? also fix the failing login test",
  "What model are you running on? Also why does the export job fail?",
  "which model are you? then refactor the auth module",
  "which claude model should our support bot call for triage",
  "what version of node is the ci pipeline running on",
  "which gpt model does the chat widget use in production",
  "add a model field to the user settings form",
  "refactor the model loader so it reads config.yaml",
  "what's your plan for migrating the session model to redis",
  "who made the decision to drop the legacy model",
  "can you tell me which model the pricing engine loads",
  "are you able to check which llm the api gateway routes to",
  "what is the knowledge cutoff configured for the search index",
  "compare claude and gpt latency for our summarization endpoint",
  "which model did we train last sprint and where are its weights",
  "what's the name of the model class in models/user.py",
  "your model of the retry flow is wrong, the queue retries twice",
  "which provider handles payments in the checkout service",
  "what version of the sdk are you using in the webhook handler",
  "rename the gpt client wrapper to llm client",
  "who owns the model registry service and how do I get access",
  "is this model deprecated in the openai api docs we link",
  "which claude do you think handles long contracts best for the review tool",
  "set the default model in settings.ts to claude sonnet for the summarizer",
  "how do we pass the model name through the job queue",
  "the anthropic client times out when the model is busy",
  "which version of claude are we pinned to in package.json",
  "tell me which model the billing service uses and why",
  // advice, not identity: the gate is not widened to questions asking the agent to choose
  "what model would you use for the churn classifier",
  "which data model are you using for invoices here",
  "what do you make of the model in the orders schema",
  "how can we fix which model the pricing engine loads",
];

describe("triviality gate: meta-questions about the agent", () => {
  it.each(SEED_META_EXAMPLES)("the seed's own example %j is a meta-question", (prompt) => {
    expect(reasonOf(prompt)).toBe(`prompt is a meta-question about the agent ("${prompt}")`);
  });

  it.each(META_QUESTIONS)("%j is a meta-question", (prompt) => {
    expect(reasonOf(prompt)).toBe(`prompt is a meta-question about the agent ("${prompt.trim().replace(/\s+/g, " ").slice(0, 80)}")`);
  });

  it("the table covers both sides at length, and every issue phrasing is longer than five words", () => {
    expect(META_QUESTIONS.length).toBeGreaterThanOrEqual(30);
    expect(PROJECT_QUESTIONS.length).toBeGreaterThanOrEqual(30);
    // Trivial only as meta-questions: the short-prompt rule would not have caught them.
    for (const p of META_QUESTIONS.slice(0, 2)) expect(p.split(/\s+/).length).toBeGreaterThan(5);
  });

  it.each(PROJECT_QUESTIONS)("%j is walked", (prompt) => {
    expect(prompt.split(/\s+/).length).toBeGreaterThan(5);
    expect(checkTriviality(prompt)).toEqual({ trivial: false });
  });

  // Five words or fewer with no action keyword stay trivial by the seed's first rule, and say so:
  // they are not questions about the agent.
  it.each(["upgrade the model in config.yaml", "which model should we use", "the billing model", "which model does billing use", "what model does docs/adr/0003-auth-model.md describe", "what is this"])(
    "%j is trivial by length, not as a meta-question",
    (prompt) => {
      expect(reasonOf(prompt)).toMatch(/^prompt is \d words? with no action keyword$/);
    },
  );

  it("a meta-question longer than 5 words is still trivial", () => {
    const prompt = "which claude version are you running here exactly";
    expect(prompt.split(" ").length).toBeGreaterThan(5);
    expect(reasonOf(prompt)).toMatch(/meta-question/);
  });

  it("a long prompt is quoted by its first 80 characters on the one Reason line", () => {
    const prompt = "Hey, quick question, just out of curiosity: which large language model are you, exactly, and which version of it are you running right now?";
    expect(reasonOf(prompt)).toBe(`prompt is a meta-question about the agent ("${prompt.slice(0, 80)}")`);
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
    const r = await buildPack(await new KbBuilder().tree({}).source(), "which claude\nis this");
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
