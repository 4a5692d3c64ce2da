"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { Activity, BookOpen, Bot, Braces, Brain, FileText, FolderGit2, LayoutDashboard, Library, ListTree, Plus, Search, ShieldCheck, Users } from "lucide-react";
import { SignOutButton } from "@/components/account/sign-out-button";
import { cn } from "@/components/ui/cn";
import { OPEN_PALETTE_EVENT } from "./command-palette";

export interface SidebarProject {
  id: string;
  name: string;
}

/** Team mode: the signed-in account (null in local mode, or when signed out). */
export interface SidebarAccount {
  name: string;
  email: string;
  isAdmin: boolean;
}

function NavLink({ href, active, children, icon: Icon }: { href: string; active: boolean; children: React.ReactNode; icon: typeof ListTree }) {
  return (
    <Link
      href={href}
      aria-current={active ? "page" : undefined}
      className={cn("flex items-center gap-2 rounded-md px-2 py-1.5 text-sm", active ? "bg-accent/12 font-medium text-accent" : "text-fg-muted hover:bg-muted hover:text-fg")}
    >
      <Icon aria-hidden className="size-4 shrink-0" />
      <span className="truncate">{children}</span>
    </Link>
  );
}

/** Projects, and the capabilities of the one that is open. */
export function Sidebar({ projects, account, signedIn }: { projects: SidebarProject[]; account: SidebarAccount | null; signedIn: boolean }) {
  const pathname = usePathname();
  const current = /^\/projects\/([^/]+)/.exec(pathname)?.[1];
  // Team mode: only instance admins add projects.
  const canAddProject = !account || account.isAdmin;
  return (
    <aside className="sticky top-0 flex h-screen w-60 shrink-0 flex-col border-r border-border bg-surface px-3 py-4">
      <Link href="/" className="mb-6 flex items-center gap-2 px-2">
        <BookOpen aria-hidden className="size-5 text-accent" />
        <span className="text-sm font-semibold">Context Workbench</span>
      </Link>
      {signedIn ? (
        <>
          <button
            type="button"
            onClick={() => window.dispatchEvent(new Event(OPEN_PALETTE_EVENT))}
            className="mb-2 flex h-8 items-center gap-2 rounded-md border border-border px-2 text-sm text-fg-muted hover:bg-muted hover:text-fg"
            aria-keyshortcuts="Control+K Meta+K"
          >
            <Search aria-hidden className="size-4" />
            <span className="flex-1 text-left">Jump to…</span>
            <kbd className="rounded border border-border px-1 text-[10px]">Ctrl K</kbd>
          </button>
          <div className="mb-4">
            <NavLink href="/search" active={pathname === "/search"} icon={Search}>
              Search everything
            </NavLink>
            <NavLink href="/api-docs" active={pathname === "/api-docs"} icon={Braces}>
              API
            </NavLink>
          </div>
          <nav aria-label="Projects" className="flex-1 overflow-y-auto">
            <div className="mb-1 flex items-center justify-between px-2">
              <h2 className="text-xs font-semibold uppercase tracking-wide text-fg-muted">Projects</h2>
              {canAddProject ? (
                <Link href="/#add-project" className="rounded p-0.5 text-fg-muted hover:bg-muted hover:text-fg" aria-label="Add a project" title="Add a project">
                  <Plus aria-hidden className="size-4" />
                </Link>
              ) : null}
            </div>
            {projects.length === 0 ? <p className="px-2 py-1 text-xs text-fg-muted">No projects yet.</p> : null}
            <ul className="space-y-0.5">
              {projects.map((p) => {
                const base = `/projects/${p.id}`;
                const open = current === p.id;
                return (
                  <li key={p.id}>
                    <NavLink href={base} active={pathname === base} icon={FolderGit2}>
                      {p.name}
                    </NavLink>
                    {open ? (
                      <ul className="ml-4 mt-0.5 space-y-0.5 border-l border-border pl-2">
                        <li>
                          <NavLink href={base} active={pathname === base} icon={LayoutDashboard}>
                            Overview
                          </NavLink>
                        </li>
                        <li>
                          <NavLink href={`${base}/topics`} active={pathname.startsWith(`${base}/topics`)} icon={ListTree}>
                            Topics
                          </NavLink>
                        </li>
                        <li>
                          <NavLink href={`${base}/context`} active={pathname.startsWith(`${base}/context`)} icon={Search}>
                            Load context
                          </NavLink>
                        </li>
                        <li>
                          <NavLink href={`${base}/knowledge`} active={pathname.startsWith(`${base}/knowledge`)} icon={Library}>
                            Knowledge base
                          </NavLink>
                        </li>
                        <li>
                          <NavLink href={`${base}/runs`} active={pathname.startsWith(`${base}/runs`)} icon={Activity}>
                            Deep-loop runs
                          </NavLink>
                        </li>
                        <li>
                          <NavLink href={`${base}/packets`} active={pathname.startsWith(`${base}/packets`)} icon={FileText}>
                            Packets &amp; briefs
                          </NavLink>
                        </li>
                        <li>
                          <NavLink href={`${base}/memory`} active={pathname.startsWith(`${base}/memory`) || pathname.startsWith(`${base}/tasks`)} icon={Brain}>
                            Memory &amp; proposals
                          </NavLink>
                        </li>
                        <li>
                          <NavLink href={`${base}/activity`} active={pathname.startsWith(`${base}/activity`)} icon={Bot}>
                            Agent activity
                          </NavLink>
                        </li>
                        <li>
                          <NavLink href={`${base}/members`} active={pathname.startsWith(`${base}/members`)} icon={Users}>
                            Members
                          </NavLink>
                        </li>
                      </ul>
                    ) : null}
                  </li>
                );
              })}
            </ul>
          </nav>
        </>
      ) : null}
      {account ? (
        <div className="mt-3 border-t border-border pt-3">
          <Link href="/account" aria-current={pathname === "/account" ? "page" : undefined} className={cn("block rounded-md px-2 py-1.5", pathname === "/account" ? "bg-accent/12" : "hover:bg-muted")}>
            <span className={cn("block truncate text-sm font-medium", pathname === "/account" && "text-accent")}>{account.name}</span>
            <span className="block truncate text-xs text-fg-muted">{account.email}</span>
          </Link>
          {account.isAdmin ? (
            <div className="mt-0.5">
              <NavLink href="/admin" active={pathname === "/admin"} icon={ShieldCheck}>
                Admin
              </NavLink>
            </div>
          ) : null}
          <SignOutButton variant="ghost" size="sm" className="mt-0.5 w-full justify-start px-2 font-normal text-fg-muted hover:text-fg" />
        </div>
      ) : null}
    </aside>
  );
}
