import { Badge } from "@/components/ui/badge";
import type { KbHealth } from "@/lib/moc/health";
import { deliberateFaultsAt, type SampleFaultPath } from "@/lib/projects/sample-fault-match";
import { DeliberateFaultLabel } from "@/components/projects/deliberate-fault";

/** Items listed per group; a generated knowledge base can have thousands. */
const SHOWN = 200;

/** One finding, and the file it is about (where the bundled sample's deliberate faults are matched). */
type Item = { text: string; path?: string };

function Group({ title, items, tone, empty, deliberate }: { title: string; items: (string | Item)[]; tone: "danger" | "warn"; empty: string; deliberate?: readonly SampleFaultPath[] }) {
  return (
    <div>
      <h3 className="flex items-center gap-2 text-sm font-medium">
        {title} <Badge tone={items.length ? tone : "ok"}>{items.length}</Badge>
      </h3>
      {items.length ? (
        <ul className="mt-1 space-y-0.5 break-all font-mono text-xs">
          {items.slice(0, SHOWN).map((i) => {
            const item = typeof i === "string" ? { text: i, path: i } : i;
            return (
              <li key={item.text}>
                {item.text}
                <DeliberateFaultLabel faults={deliberateFaultsAt(deliberate, item.path)} />
              </li>
            );
          })}
          {items.length > SHOWN ? <li className="text-fg-muted">and {items.length - SHOWN} more</li> : null}
        </ul>
      ) : (
        <p className="mt-1 text-xs text-fg-muted">{empty}</p>
      )}
    </div>
  );
}

/** What in the knowledge base makes the loader's pack worse. */
export function HealthPanel({ health, deliberate }: { health: KbHealth; deliberate?: readonly SampleFaultPath[] }) {
  return (
    <div className="grid gap-4 p-4 sm:grid-cols-2" data-testid="kb-health">
      <Group
        title="Broken links"
        tone="danger"
        items={health.brokenLinks.map((b) => ({ text: `${b.from} → ${b.target}${b.reason ? ` (${b.reason})` : ""}`, path: b.from }))}
        empty="Every link resolves."
        deliberate={deliberate}
      />
      <Group title="Oversize indexes (over 500 lines)" tone="warn" items={health.oversizeIndexes.map((o) => `${o.path} (${o.lines} lines)`)} empty="Every index is within 500 lines." />
      <Group title="Placeholder-only sections" tone="warn" items={health.placeholderSections} empty="No section is only template placeholders." deliberate={deliberate} />
      <Group title="Files no index reaches" tone="warn" items={health.unreachableFiles} empty="Every file under docs/ is linked from an index." />
      <Group title="Deeper than the loader reaches (depth > 3)" tone="warn" items={health.tooDeep} empty="Everything linked is within depth 3." />
      <Group title="Links that leave docs/" tone="danger" items={health.escapingLinks.map((e) => `${e.from} → ${e.target}`)} empty="No link points outside docs/." />
      <Group title="Files not read (links out, loops, pipes, binary, oversize)" tone="danger" items={health.refused.map((r) => r.message)} empty="Every file under docs/ could be read." />
      {health.truncated ? <p className="text-xs text-warn sm:col-span-2">{health.truncated}</p> : null}
    </div>
  );
}
