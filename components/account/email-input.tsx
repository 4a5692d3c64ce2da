import type { ComponentProps } from "react";
import { Input } from "@/components/ui/input";

/** An account email field: the sign-in address's limits and no spell-checking, however it is labelled. */
export function EmailInput(props: Omit<ComponentProps<typeof Input>, "type">) {
  return <Input name="email" type="email" required maxLength={254} autoComplete="off" spellCheck={false} {...props} />;
}
