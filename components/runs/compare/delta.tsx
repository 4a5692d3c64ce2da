import { cn } from "@/components/ui/cn";

/** A signed difference; up is good for every signal here (they all gate or score STOP upwards). */
export function Delta({ value, digits = 3 }: { value: number | null; digits?: number }) {
  if (value === null) return <span className="text-fg-muted">—</span>;
  if (value === 0) return <span className="text-fg-muted">±0</span>;
  return <span className={cn("tabular-nums font-medium", value > 0 ? "text-ok" : "text-danger")}>{`${value > 0 ? "+" : "−"}${Math.abs(value).toFixed(digits)}`}</span>;
}
