import { Card, CardHeader } from "@/components/ui/card";
import type { StateLogView } from "@/lib/deep-context/views";

/** Corrupt lines named on the page; the count says how many there are. */
const LINES_SHOWN = 10;

/**
 * How the state log was read when it is not intact: a torn last line left out, or bad lines
 * kept in a file left whole. The page never writes; it says what `workbench reduce` does.
 */
export function StateLogNotice({ log, relPath }: { log: StateLogView; relPath: string }) {
  const fmt = (n: number) => n.toLocaleString("en");
  const torn = log.reading === "torn_tail_repaired";
  return (
    <Card>
      <div role="status" aria-label="State log reading" className="border-l-4 border-warn">
        <CardHeader
          title={torn ? "State log: torn last line left out" : `State log: ${fmt(log.corruptLineCount)} line${log.corruptLineCount === 1 ? "" : "s"} not read, file left whole`}
          description={
            torn
              ? `The last line of ${relPath} is incomplete (a write cut short): its ${fmt(log.droppedBytes)} bytes are left out of what this page shows. The page never writes; workbench reduce cuts them off the file, as the reference reducer does.`
              : `Valid lines follow the bad ones in ${relPath}, so nothing is cut: every valid line is read and the file is left as it is (the reference reducer would cut it at the first bad line). workbench reduce leaves it whole too.`
          }
        />
        {log.corruptLines.length ? (
          <ul className="space-y-0.5 px-4 pb-3 font-mono text-xs" aria-label="Lines not read">
            {log.corruptLines.slice(0, LINES_SHOWN).map((w) => (
              <li key={w.line}>
                line {fmt(w.line)} · {fmt(w.length)} chars · sha256 {w.sha256} · {w.error}
              </li>
            ))}
            {log.corruptLineCount > LINES_SHOWN ? <li className="font-sans text-fg-muted">… and {fmt(log.corruptLineCount - LINES_SHOWN)} more</li> : null}
          </ul>
        ) : null}
      </div>
    </Card>
  );
}
