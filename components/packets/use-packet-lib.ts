"use client";

import { useEffect, useState } from "react";

type PacketLib = typeof import("@/lib/packets");

/**
 * The packet library (parser, renderer, validator with its tokenizer), loaded after the
 * page is interactive: the tokenizer's tables are large and the page must not wait for them.
 */
export function usePacketLib(): PacketLib | null {
  const [lib, setLib] = useState<PacketLib | null>(null);
  useEffect(() => {
    let live = true;
    void import("@/lib/packets").then((m) => {
      if (live) setLib(m);
    });
    return () => {
      live = false;
    };
  }, []);
  return lib;
}
