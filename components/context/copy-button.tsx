"use client";

import { useState } from "react";
import { Check, Copy, Download } from "lucide-react";
import { Button } from "@/components/ui/button";

/**
 * The text to copy or download: given, or (`sourceId`) the text of an element already on the
 * page, so a long text shown there is not sent a second and third time for the buttons.
 */
type Source = { text: string; sourceId?: undefined } | { text?: undefined; sourceId: string };

function textOf(src: Source): string {
  return src.text ?? document.getElementById(src.sourceId!)?.textContent ?? "";
}

export function CopyButton({ label = "Copy", ...src }: Source & { label?: string }) {
  const [done, setDone] = useState(false);
  return (
    <Button
      size="sm"
      onClick={async () => {
        await navigator.clipboard.writeText(textOf(src));
        setDone(true);
        setTimeout(() => setDone(false), 1500);
      }}
    >
      {done ? <Check aria-hidden className="size-4" /> : <Copy aria-hidden className="size-4" />}
      {done ? "Copied" : label}
    </Button>
  );
}

export function DownloadButton({ filename, ...src }: Source & { filename: string }) {
  return (
    <Button
      size="sm"
      onClick={() => {
        const url = URL.createObjectURL(new Blob([textOf(src)], { type: "text/markdown" }));
        const a = document.createElement("a");
        a.href = url;
        a.download = filename;
        a.click();
        URL.revokeObjectURL(url);
      }}
    >
      <Download aria-hidden className="size-4" /> Download
    </Button>
  );
}
