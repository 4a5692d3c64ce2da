"use client";

import { Command } from "cmdk";
import { usePathname, useRouter } from "next/navigation";
import { useCallback, useEffect, useRef, useState } from "react";
import { Activity, Bookmark, FileText, FolderGit2, Hash, Search } from "lucide-react";
import { ApiError, callApi, errorMessage } from "@/lib/api/client";
import { searchRoutes, type JumpTargetsWire as JumpTargets, type SearchHit } from "@/lib/search/schemas";
import { snippetParts } from "@/lib/search/text";
import { KIND_LABEL } from "@/components/search/kind-label";

const PROJECT_PAGES = [
  ["", "Overview"],
  ["/topics", "Topics"],
  ["/context", "Load context"],
  ["/knowledge", "Knowledge base"],
  ["/runs", "Deep-loop runs"],
  ["/packets", "Packets & briefs"],
  ["/memory", "Memory & proposals"],
  ["/activity", "Agent activity"],
] as const;

/** Opens the palette from anywhere (a button in the sidebar dispatches this). */
export const OPEN_PALETTE_EVENT = "workbench:open-palette";

function plain(marked: string): string {
  return snippetParts(marked)
    .map((p) => p.text)
    .join("");
}

function Item({ value, onSelect, icon: Icon, children, hint, forceMount }: { value: string; onSelect: () => void; icon: typeof Hash; children: React.ReactNode; hint?: string; forceMount?: boolean }) {
  return (
    <Command.Item
      value={value}
      onSelect={onSelect}
      forceMount={forceMount}
      className="flex cursor-pointer items-center gap-2 rounded-md px-2 py-1.5 text-sm data-[selected=true]:bg-accent/12 data-[selected=true]:text-accent"
    >
      <Icon aria-hidden className="size-4 shrink-0 text-fg-muted" />
      <span className="min-w-0 flex-1 truncate">{children}</span>
      {hint ? <span className="shrink-0 text-xs text-fg-muted">{hint}</span> : null}
    </Command.Item>
  );
}

const groupClass = "px-1 py-1 [&_[cmdk-group-heading]]:px-2 [&_[cmdk-group-heading]]:py-1 [&_[cmdk-group-heading]]:text-xs [&_[cmdk-group-heading]]:font-semibold [&_[cmdk-group-heading]]:text-fg-muted";

/**
 * Ctrl/Cmd+K: jump to any project, project page, topic, run, packet or saved view by typing
 * part of its name; below them, the best full-text matches for what was typed.
 */
export function CommandPalette() {
  const router = useRouter();
  const pathname = usePathname();
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState("");
  const [targets, setTargets] = useState<JumpTargets | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [hits, setHits] = useState<SearchHit[]>([]);
  const searchSeq = useRef(0);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      // By physical key, so non-Latin layouts work; an editor that used the chord keeps it.
      if ((e.metaKey || e.ctrlKey) && !e.altKey && e.code === "KeyK" && !e.defaultPrevented) {
        e.preventDefault();
        setOpen((o) => !o);
      }
    };
    const onOpen = () => setOpen(true);
    document.addEventListener("keydown", onKey);
    window.addEventListener(OPEN_PALETTE_EVENT, onOpen);
    return () => {
      document.removeEventListener("keydown", onKey);
      window.removeEventListener(OPEN_PALETTE_EVENT, onOpen);
    };
  }, []);

  // Fresh targets on every open: projects and packets change while the page stays.
  useEffect(() => {
    if (!open) return;
    let live = true;
    setLoadError(null);
    callApi(searchRoutes.palette, {})
      .then((t) => live && setTargets(t))
      .catch((e: unknown) => live && setLoadError(`Could not load projects: ${e instanceof ApiError && e.status ? `the server answered ${e.status}` : errorMessage(e)}`));
    return () => {
      live = false;
    };
  }, [open]);

  useEffect(() => {
    const q = query.trim();
    const seq = ++searchSeq.current;
    if (q.length < 2) {
      setHits([]);
      return;
    }
    const timer = setTimeout(() => {
      callApi(searchRoutes.search, { query: { q, limit: 8 } })
        .then((r) => seq === searchSeq.current && setHits(r.hits))
        .catch(() => seq === searchSeq.current && setHits([]));
    }, 150);
    return () => clearTimeout(timer);
  }, [query]);

  const go = useCallback(
    (href: string) => {
      setOpen(false);
      setQuery("");
      router.push(href);
    },
    [router],
  );

  const current = /^\/projects\/([^/]+)/.exec(pathname)?.[1];
  const projectName = (id: string) => targets?.projects.find((p) => p.id === id)?.name ?? "";
  const ordered = targets ? [...targets.projects].sort((a, b) => (a.id === current ? -1 : b.id === current ? 1 : 0)) : [];

  return (
    <Command.Dialog
      open={open}
      onOpenChange={setOpen}
      label="Command palette"
      overlayClassName="fixed inset-0 z-40 bg-black/30"
      contentClassName="fixed left-1/2 top-[12vh] z-50 w-[min(40rem,92vw)] -translate-x-1/2 overflow-hidden rounded-lg border border-border bg-surface shadow-xl"
    >
      <div className="flex items-center gap-2 border-b border-border px-3">
        <Search aria-hidden className="size-4 text-fg-muted" />
        <Command.Input
          value={query}
          onValueChange={setQuery}
          placeholder="Jump to a project, topic, run, packet or page…"
          className="h-11 w-full bg-transparent text-sm placeholder:text-fg-muted"
          // The dialog frames the field; the global focus ring would be cut off by its edge.
          style={{ outline: "none" }}
        />
        <kbd className="rounded border border-border px-1.5 text-xs text-fg-muted">Esc</kbd>
      </div>
      <Command.List className="max-h-[60vh] overflow-y-auto p-1" aria-label="Places and matches">
        {loadError ? <p className="px-3 py-2 text-sm text-danger">{loadError}</p> : null}
        {!targets && !loadError ? <Command.Loading>Loading…</Command.Loading> : null}
        {query.trim() ? (
          <Command.Group heading="Search" forceMount className={groupClass}>
            <Item value={`search-everything ${query}`} forceMount onSelect={() => go(`/search?${new URLSearchParams({ q: query.trim() })}`)} icon={Search} hint="Enter">
              Search everything for “{query.trim()}”
            </Item>
            {hits.map((h) => (
              <Item key={`${h.projectId}:${h.kind}:${h.ref}`} forceMount value={`hit ${h.projectId} ${h.kind} ${h.ref}`} onSelect={() => go(h.href)} icon={Hash} hint={`${KIND_LABEL[h.kind]} · ${h.projectName}`}>
                {plain(h.title)}
              </Item>
            ))}
          </Command.Group>
        ) : null}
        <Command.Group heading="Pages" className={groupClass}>
          <Item value="Projects home" onSelect={() => go("/")} icon={FolderGit2}>
            Projects
          </Item>
          <Item value="Search page" onSelect={() => go("/search")} icon={Search}>
            Search
          </Item>
          {ordered.flatMap((p) =>
            PROJECT_PAGES.map(([suffix, label]) => (
              <Item key={`${p.id}${suffix}`} value={`${p.name} ${label} ${p.id}`} onSelect={() => go(`/projects/${p.id}${suffix}`)} icon={FolderGit2} hint={p.name}>
                {label}
              </Item>
            )),
          )}
        </Command.Group>
        {targets?.views.length ? (
          <Command.Group heading="Saved views" className={groupClass}>
            {targets.views.map((v) => (
              <Item key={v.id} value={`view ${v.name} ${v.surface} ${v.id}`} onSelect={() => go(v.path)} icon={Bookmark} hint={`${v.surface} · ${projectName(v.projectId)}`}>
                {v.name}
              </Item>
            ))}
          </Command.Group>
        ) : null}
        {targets?.topics.length ? (
          <Command.Group heading="Topics" className={groupClass}>
            {targets.topics.map((t) => (
              <Item
                key={`${t.projectId}:${t.slug}`}
                value={`topic ${t.slug} ${t.title ?? ""} ${t.projectId}`}
                onSelect={() => go(`/projects/${t.projectId}/topics/${encodeURIComponent(t.slug)}`)}
                icon={Hash}
                hint={projectName(t.projectId)}
              >
                {t.title ? `${t.title} (${t.slug})` : t.slug}
              </Item>
            ))}
          </Command.Group>
        ) : null}
        {targets?.runs.length ? (
          <Command.Group heading="Runs" className={groupClass}>
            {targets.runs.map((r) => (
              <Item key={r.id} value={`run ${r.relPath} ${r.loopType} ${r.id}`} onSelect={() => go(`/projects/${r.projectId}/runs/${r.id}`)} icon={Activity} hint={`${r.loopType} · ${projectName(r.projectId)}`}>
                {r.relPath}
              </Item>
            ))}
          </Command.Group>
        ) : null}
        {targets?.packets.length ? (
          <Command.Group heading="Packets and briefs" className={groupClass}>
            {targets.packets.map((p) => (
              <Item
                key={p.id}
                value={`packet ${p.title} ${p.kind} ${p.id}`}
                onSelect={() => go(`/projects/${p.projectId}/packets/${p.id}`)}
                icon={FileText}
                hint={`${p.kind} · ${p.reviewStatus} · ${projectName(p.projectId)}`}
              >
                {p.title}
              </Item>
            ))}
          </Command.Group>
        ) : null}
      </Command.List>
    </Command.Dialog>
  );
}
