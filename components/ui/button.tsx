import { Slot } from "@radix-ui/react-slot";
import { cva, type VariantProps } from "class-variance-authority";
import type { ButtonHTMLAttributes } from "react";
import { cn } from "./cn";

const button = cva("inline-flex items-center justify-center gap-1.5 rounded-md text-sm font-medium whitespace-nowrap transition-colors disabled:pointer-events-none disabled:opacity-50", {
  variants: {
    variant: {
      primary: "bg-accent text-accent-fg hover:opacity-90",
      secondary: "border border-border bg-surface hover:bg-muted",
      ghost: "hover:bg-muted",
      danger: "bg-danger text-white hover:opacity-90",
    },
    size: { sm: "h-8 px-2.5", md: "h-9 px-3.5" },
  },
  defaultVariants: { variant: "secondary", size: "md" },
});

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement>, VariantProps<typeof button> {
  asChild?: boolean;
}

export function Button({ className, variant, size, asChild, ...props }: ButtonProps) {
  const Comp = asChild ? Slot : "button";
  return <Comp className={cn(button({ variant, size }), className)} {...props} />;
}
