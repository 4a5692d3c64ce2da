import { CopyButton } from "@/components/context/copy-button";

/** The MCP resource URI of what the page shows, for a person to paste into an agent's conversation. */
export function ResourceUri({ uri, className = "" }: { uri: string; className?: string }) {
  return (
    <p className={`flex flex-wrap items-center gap-2 text-xs text-fg-muted ${className}`}>
      <span>MCP resource</span>
      <code className="break-all rounded bg-muted px-1.5 py-0.5 font-mono text-fg" data-testid="mcp-resource-uri">
        {uri}
      </code>
      <CopyButton text={uri} label="Copy URI" />
    </p>
  );
}
