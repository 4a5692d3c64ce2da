import type { BadgeTone } from "@/components/ui/badge";

export function decisionTone(d: string | null | undefined): BadgeTone {
  return d === "STOP_ALLOWED" ? "ok" : d === "STOP_BLOCKED" ? "danger" : d === "CONTINUE" ? "accent" : "neutral";
}
