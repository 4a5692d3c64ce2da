import { namesAgent } from "@/lib/collab/agent-label";

/**
 * An agent (an MCP caller) where a person's name would stand: "claude-code (agent)", or
 * "local agent (HTTP)" for a name that already says it is an agent (lib/collab/agent-label.ts).
 * The account it acted for goes in the hover text, so rows keep one line.
 */
export function AgentName({ name, actor }: { name: string; actor?: string | null }) {
  return (
    <span data-agent={name} title={actor ? `Saved through MCP by the agent "${name}", for ${actor}` : `Saved through MCP by the agent "${name}"`}>
      {name}
      {namesAgent(name) ? null : <span className="text-fg-muted"> (agent)</span>}
    </span>
  );
}
