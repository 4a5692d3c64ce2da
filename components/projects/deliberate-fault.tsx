import type { DeliberateFault } from "@/lib/projects/sample-fault-match";

/**
 * "(deliberate: part of the sample)" beside a warning the bundled sample ships on purpose. It
 * only adds words: the warning itself is shown as it would be anywhere else.
 */
export function DeliberateFaultLabel({ faults }: { faults: readonly DeliberateFault[] }) {
  if (faults.length === 0) return null;
  const why = faults.map((f) => `${f.fault}. The Workbench should: ${f.expected}.`).join(" ");
  return (
    <span className="font-sans text-xs font-medium break-normal text-fg-muted" data-deliberate-fault="" title={`Listed under "Deliberate faults" in the sample's SAMPLE.md: ${why}`}>
      {" "}
      (deliberate: part of the sample)
    </span>
  );
}
