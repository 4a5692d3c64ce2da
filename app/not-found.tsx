import Link from "next/link";
import { EmptyState } from "@/components/ui/empty-state";

export default function NotFound() {
  return (
    <div className="mx-auto max-w-xl pt-16">
      <EmptyState
        title="Not found"
        action={
          <Link className="text-accent underline" href="/">
            Back to projects
          </Link>
        }
      >
        This project or page does not exist (or was removed).
      </EmptyState>
    </div>
  );
}
