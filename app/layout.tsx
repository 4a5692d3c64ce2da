import type { Metadata } from "next";
import type { ReactNode } from "react";
import "./globals.css";
import { AccountIdentityProvider } from "@/components/identity/account-identity";
import { CommandPalette } from "@/components/shell/command-palette";
import { PageContainer } from "@/components/shell/page-container";
import { Sidebar } from "@/components/shell/sidebar";
import { viewer } from "@/app/_lib/page-access";
import { visibleProjectIds } from "@/lib/auth/access";
import { listProjectNames } from "@/lib/projects/service";

export const metadata: Metadata = {
  title: { default: "Context Workbench", template: "%s · Context Workbench" },
  description: "See and shape the context your AI coding agents work from.",
};

export const dynamic = "force-dynamic";

export default async function RootLayout({ children }: { children: ReactNode }) {
  // The sign-in page shares this layout, so a signed-out visitor gets an empty sidebar, not a redirect.
  const principal = await viewer();
  const projects = principal ? await listProjectNames(await visibleProjectIds(principal)) : [];
  const account = principal?.kind === "user" ? { name: principal.name, email: principal.email, isAdmin: principal.isAdmin } : null;
  return (
    <html lang="en">
      <body className="font-sans antialiased">
        <a href="#main" className="sr-only focus:not-sr-only focus:fixed focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-surface focus:px-3 focus:py-2">
          Skip to content
        </a>
        <AccountIdentityProvider account={principal?.kind === "user" ? { id: principal.userId, name: principal.name } : null}>
          <div className="flex min-h-screen">
            <Sidebar projects={projects} account={account} signedIn={principal !== null} />
            <main id="main" className="min-w-0 flex-1 px-8 py-6">
              <PageContainer>{children}</PageContainer>
            </main>
          </div>
          <CommandPalette />
        </AccountIdentityProvider>
      </body>
    </html>
  );
}
