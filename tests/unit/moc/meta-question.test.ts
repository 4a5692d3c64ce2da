import { describe, expect, it } from "vitest";
import { isMetaQuestion, metaWords } from "../../../lib/moc/meta-question";

describe("meta-question words", () => {
  it("opens contractions and joins multi-word attributes, so their parts are not taken as project words", () => {
    expect(metaWords("What's your knowledge cut-off date?")).toEqual(["what", "is", "your", "cutoff"]);
    expect(metaWords("you\u2019re Claude's, aren't you")).toEqual(["you", "are", "claude", "are", "not", "you"]);
    expect(metaWords("How big is your context window and your training data?")).toEqual(["how", "big", "is", "your", "contextwindow", "and", "your", "trainingdata"]);
    expect(metaWords("which large language model")).toEqual(["which", "llm"]);
  });

  it("a version number is part of a model name; a word of any other kind is project content", () => {
    expect(isMetaQuestion("are you gpt-4o or o1?")).toBe(true);
    expect(isMetaQuestion("are you gpt-4o or the o1 tier of our plan?")).toBe(false);
  });

  it("'data', 'window' or 'should' alone are not in the vocabulary", () => {
    expect(isMetaQuestion("which data model are you using")).toBe(false);
    expect(isMetaQuestion("which window are you using")).toBe(false);
    expect(isMetaQuestion("which model should you use")).toBe(false);
  });

  it("needs the agent as subject, or the bare question of the seed's examples", () => {
    expect(isMetaQuestion("what version of claude")).toBe(true);
    expect(isMetaQuestion("what version")).toBe(false);
    expect(isMetaQuestion("how are you")).toBe(false);
    expect(isMetaQuestion("what is this")).toBe(false);
    expect(isMetaQuestion("")).toBe(false);
  });
});
