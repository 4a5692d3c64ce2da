import Link from "next/link";
import type { ComponentProps } from "react";
import { cn } from "./cn";

/**
 * How a link looks in running text and table cells: the accent colour says "this goes
 * somewhere" before the pointer gets there; the underline comes on hover. Callers add type
 * (mono, size, weight), never another colour, so every table's links read the same.
 */
export const LINK_CLASS = "text-accent underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-accent";

export function TextLink({ className, ...props }: ComponentProps<typeof Link>) {
  return <Link className={cn(LINK_CLASS, className)} {...props} />;
}
