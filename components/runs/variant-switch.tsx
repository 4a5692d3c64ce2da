import Link from "next/link";
import { cn } from "@/components/ui/cn";

const VARIANTS = [
  { id: "documented", label: "Documented", hint: "The signal formulas as the seed documents them (agreement over gated findings)." },
  { id: "stored", label: "Stored", hint: "The formulas of the stored convergence script (agreement over every finding)." },
] as const;

/** Which signal formulas the page uses; a link, so the choice can be shared. */
export function VariantSwitch({ current, hrefFor }: { current: "documented" | "stored"; hrefFor: (variant: string) => string }) {
  return (
    <nav aria-label="Signal variant" className="inline-flex rounded-md border border-border p-0.5 text-xs">
      {VARIANTS.map((v) => (
        <Link
          key={v.id}
          href={hrefFor(v.id)}
          title={v.hint}
          aria-current={current === v.id ? "page" : undefined}
          className={cn("rounded px-2 py-1 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-accent", current === v.id ? "bg-accent text-accent-fg" : "text-fg-muted hover:bg-muted")}
        >
          {v.label}
        </Link>
      ))}
    </nav>
  );
}
