"use client";

import { FilePlus2, Upload } from "lucide-react";
import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import type { z } from "zod";
import { callApi, errorMessage } from "@/lib/api/client";
import { PACKET_MAX_CHARS } from "@/lib/packets/limits";
import { packetRoutes, type newPacketInput } from "@/lib/packets/schemas";

/** New packet / new brief from the seed's templates, or an imported .md file. */
export function NewPacketActions({ projectId, topicSlug = null }: { projectId: string; topicSlug?: string | null }) {
  const router = useRouter();
  const file = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function create(body: Omit<z.input<typeof newPacketInput>, "topicSlug">) {
    setBusy(true);
    setError(null);
    try {
      const { packet } = await callApi(packetRoutes.create, { params: { id: projectId }, body: { topicSlug, ...body } });
      router.push(`/projects/${projectId}/packets/${packet.id}`);
    } catch (e) {
      setError(errorMessage(e));
      setBusy(false);
    }
  }

  /**
   * The server caps the markdown in characters (PACKET_MAX_CHARS), not bytes: a file of
   * accented or CJK text has more bytes than characters. A file of more than 3 bytes per
   * allowed character cannot fit (UTF-8 spends at most 3 bytes per UTF-16 unit), so it is
   * refused unread; otherwise the decoded text is measured as the server measures it.
   */
  async function importFile(f: File) {
    const limit = `a packet file is at most ${PACKET_MAX_CHARS.toLocaleString("en")} characters`;
    if (f.size > 3 * PACKET_MAX_CHARS) {
      setError(`${f.name} is ${Math.round(f.size / 1024).toLocaleString("en")} KB; ${limit}.`);
      return;
    }
    const markdown = await f.text();
    if (markdown.length > PACKET_MAX_CHARS) {
      setError(`${f.name} has ${markdown.length.toLocaleString("en")} characters; ${limit}.`);
      return;
    }
    await create({ markdown, title: undefined });
  }

  return (
    <div className="flex flex-wrap items-center gap-2">
      <Button variant="primary" size="sm" disabled={busy} onClick={() => void create({ kind: "packet" })}>
        <FilePlus2 className="size-4" aria-hidden /> New packet
      </Button>
      <Button size="sm" disabled={busy} onClick={() => void create({ kind: "brief" })}>
        <FilePlus2 className="size-4" aria-hidden /> New brief
      </Button>
      <Button size="sm" disabled={busy} onClick={() => file.current?.click()}>
        <Upload className="size-4" aria-hidden /> Import .md
      </Button>
      <input
        ref={file}
        type="file"
        accept=".md,.markdown,text/markdown,text/plain"
        className="sr-only"
        aria-label="Import a packet file"
        onChange={(e) => {
          const f = e.target.files?.[0];
          e.target.value = "";
          if (f) void importFile(f);
        }}
      />
      {error ? (
        <p role="alert" className="basis-full text-sm text-danger">
          {error}
        </p>
      ) : null}
    </div>
  );
}
