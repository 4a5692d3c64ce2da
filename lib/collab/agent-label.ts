/**
 * How an agent (an MCP caller) is named where a person's name would stand. A token's name is
 * whatever its owner typed ("claude-code"), so the label adds "(agent)"; the names the Workbench
 * gives its own callers ("stdio agent", "local agent (HTTP)") and names like "review agent"
 * already say so, and a second "(agent)" would only repeat it.
 */
export function namesAgent(name: string): boolean {
  return /\bagents?\b/i.test(name);
}

/** The agent's name as one line of text: "claude-code (agent)", "local agent (HTTP)". */
export function agentLabel(name: string): string {
  return namesAgent(name) ? name : `${name} (agent)`;
}
