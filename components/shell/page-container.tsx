import type { ReactNode } from "react";

/**
 * The content column every page renders in (the root layout wraps each page in it): one left
 * edge and one maximum width, so moving between pages never shifts the content sideways. Pages
 * that want a narrower measure (a form, prose) narrow their own blocks and keep this edge.
 */
export function PageContainer({ children }: { children: ReactNode }) {
  return (
    <div className="mx-auto w-full max-w-7xl" data-page-container="">
      {children}
    </div>
  );
}
