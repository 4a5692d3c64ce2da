"use client";

import { useEffect, useRef, type ReactNode } from "react";

/** A modal (the command palette, a drawer) owns the keyboard while it is open. */
export function dialogOpen(): boolean {
  return document.querySelector('[role="dialog"][data-state="open"], [aria-modal="true"]') !== null;
}

/** Typing in these must never be taken for a list shortcut. */
export function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el) return false;
  return el.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(el.tagName) || Boolean(el.closest?.("[contenteditable=true], .cm-editor"));
}

/**
 * Keyboard navigation for a table or list: j / k (or the arrow keys while a row has focus)
 * move between rows marked `data-nav-row`, Enter opens the row's first link (or clicks the
 * row), and / focuses the page's `data-nav-search` field. Only one list per page should be
 * the `primary` one that answers j / k while nothing is focused.
 */
export function KeyboardList({ children, label, primary = true, className }: { children: ReactNode; label: string; primary?: boolean; className?: string }) {
  const ref = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const root = ref.current;
    if (!root) return;
    const rows = () => [...root.querySelectorAll<HTMLElement>("[data-nav-row]")];
    // Roving tab stop: Tab reaches the list once, at its first row (or the one last visited).
    const initial = rows();
    if (initial.length > 0 && !initial.some((r) => r.tabIndex === 0)) initial[0]!.tabIndex = 0;
    const move = (delta: number) => {
      const list = rows();
      if (list.length === 0) return;
      const at = list.findIndex((r) => r === document.activeElement || r.contains(document.activeElement));
      const next = list[Math.max(0, Math.min(list.length - 1, at < 0 ? (delta > 0 ? 0 : list.length - 1) : at + delta))]!;
      for (const r of list) r.tabIndex = r === next ? 0 : -1;
      next.focus();
      next.scrollIntoView({ block: "nearest" });
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.metaKey || e.ctrlKey || e.altKey || isTyping(e.target) || dialogOpen()) return;
      const inside = root.contains(document.activeElement);
      if (e.key === "/") {
        const search = document.querySelector<HTMLElement>("[data-nav-search]");
        if (search) {
          e.preventDefault();
          search.focus();
        }
        return;
      }
      if (!inside && !primary) return;
      // Another list has the focus: its rows, not this list's, answer j / k.
      if (!inside && (document.activeElement as HTMLElement | null)?.closest("[data-nav-row]")) return;
      if (e.key === "j" || (inside && e.key === "ArrowDown")) {
        e.preventDefault();
        move(1);
      } else if (e.key === "k" || (inside && e.key === "ArrowUp")) {
        e.preventDefault();
        move(-1);
      } else if (e.key === "Enter" && inside) {
        const row = (document.activeElement as HTMLElement).closest<HTMLElement>("[data-nav-row]");
        if (!row || document.activeElement !== row) return;
        e.preventDefault();
        const link = row.querySelector<HTMLElement>("a[href]");
        (link ?? row).click();
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [primary]);

  return (
    <div ref={ref} aria-label={label} role="group" className={className} aria-keyshortcuts="j k Enter /">
      {children}
    </div>
  );
}
