/** Tokens against the 2,000 cap, with the seed's targets (500 simple, 1,500 complex) marked. */
export function TokenMeter({ tokens, budget, tokenizer }: { tokens: number | null; budget: number; tokenizer: string }) {
  const pct = tokens === null ? 0 : Math.min(100, (tokens / budget) * 100);
  const tone = tokens === null ? "bg-muted" : tokens > budget ? "bg-danger" : tokens > 1500 ? "bg-warn" : "bg-ok";
  return (
    <div className="space-y-1" data-testid="token-meter">
      <div className="flex items-baseline justify-between text-xs">
        <span className="font-medium">
          <span className="tabular-nums">{tokens === null ? "…" : tokens.toLocaleString("en")}</span> / {budget.toLocaleString("en")} tokens
        </span>
        <span className="text-fg-muted" title="The seed's targets: under 500 for simple tasks, under 1,500 for complex ones">
          {tokenizer}
        </span>
      </div>
      <div className="relative h-2 overflow-hidden rounded-full bg-muted" role="meter" aria-label="Token estimate" aria-valuemin={0} aria-valuemax={budget} aria-valuenow={tokens ?? 0}>
        <div className={`h-full ${tone}`} style={{ width: `${pct}%` }} />
        <span className="absolute inset-y-0 w-px bg-fg/40" style={{ left: `${(500 / budget) * 100}%` }} aria-hidden />
        <span className="absolute inset-y-0 w-px bg-fg/40" style={{ left: `${(1500 / budget) * 100}%` }} aria-hidden />
      </div>
    </div>
  );
}
