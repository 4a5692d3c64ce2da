import type { ReactNode } from "react";
import { cn } from "./cn";

const TONES = {
  neutral: "bg-muted text-fg-muted",
  ok: "bg-ok/15 text-ok",
  warn: "bg-warn/20 text-fg",
  danger: "bg-danger/15 text-danger",
  accent: "bg-accent/15 text-accent",
} as const;

export type BadgeTone = keyof typeof TONES;

export function Badge({ tone = "neutral", children, className, title }: { tone?: BadgeTone; children: ReactNode; className?: string; title?: string }) {
  return (
    <span title={title} className={cn("inline-flex items-center rounded px-1.5 py-0.5 text-xs font-medium", TONES[tone], className)}>
      {children}
    </span>
  );
}

/** Status words of the load-context family, coloured consistently everywhere. */
export function statusTone(status: string | null | undefined): BadgeTone {
  switch (status) {
    case "completed":
    case "implemented":
    case "final":
    case "succeeded":
      return "ok";
    case "in_progress":
    case "running":
    case "draft":
      return "accent";
    case "paused":
    case "queued":
    case "promoted":
    case "interrupted":
      return "warn";
    case "failed":
      return "danger";
    default:
      return "neutral";
  }
}
