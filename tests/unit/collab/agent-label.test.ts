import { describe, expect, it } from "vitest";
import { agentLabel, namesAgent } from "@/lib/collab/agent-label";
import { LOCAL_HTTP_AGENT_NAME, STDIO_AGENT_NAME } from "@/lib/mcp/context";

describe("agentLabel", () => {
  it("marks a token's own name as an agent's", () => {
    expect(agentLabel("claude-code")).toBe("claude-code (agent)");
    expect(agentLabel("CI bot")).toBe("CI bot (agent)");
  });

  it("does not repeat (agent) after the Workbench's own caller names", () => {
    expect(agentLabel(LOCAL_HTTP_AGENT_NAME)).toBe("local agent (HTTP)");
    expect(agentLabel(STDIO_AGENT_NAME)).toBe("stdio agent");
  });

  it("reads 'agent' as a word, in any case, singular or plural", () => {
    expect(namesAgent("Review Agent")).toBe(true);
    expect(namesAgent("nightly agents")).toBe(true);
    expect(namesAgent("agent-7")).toBe(true);
    // Part of a longer word is not the word.
    expect(namesAgent("agentic-runner")).toBe(false);
    expect(namesAgent("reagent")).toBe(false);
    expect(agentLabel("reagent")).toBe("reagent (agent)");
  });
});
