import { FileText, FolderTree } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import type { MocNode } from "@/lib/moc/health";

function Node({ node }: { node: MocNode }) {
  const Icon = node.kind === "section" ? FolderTree : FileText;
  return (
    <li>
      <div className="flex flex-wrap items-baseline gap-2 py-0.5">
        <Icon aria-hidden className={`size-3.5 shrink-0 self-center ${node.missing ? "text-danger" : "text-fg-muted"}`} />
        <span className={`font-mono text-xs ${node.missing ? "text-danger line-through" : ""}`}>{node.path}</span>
        {node.kind === "section" ? <Badge>depth {node.depth}</Badge> : null}
        {node.missing ? <Badge tone="danger">{node.problem ?? "missing"}</Badge> : null}
        {node.problem && !node.missing ? <Badge tone="warn">{node.problem}</Badge> : null}
        {!node.reachable && !node.missing ? <Badge tone="warn">beyond depth 3</Badge> : null}
        {node.hook ? <span className="text-xs text-fg-muted">— {node.hook}</span> : null}
      </div>
      {node.children.length ? (
        <ul className="ml-4 border-l border-border pl-3">
          {node.children.map((c) => (
            <Node key={c.path + c.hook} node={c} />
          ))}
        </ul>
      ) : null}
    </li>
  );
}

/** The docs/ map of content as the loader sees it: sections by depth, with their hooks. */
export function MocTree({ root }: { root: MocNode }) {
  return (
    <ul aria-label="Map of content" className="text-sm">
      <Node node={root} />
    </ul>
  );
}
