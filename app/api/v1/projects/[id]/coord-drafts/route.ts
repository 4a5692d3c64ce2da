import { NextResponse } from "next/server";
import { z } from "zod";
import { coordDraft, draftQuery, saveCoordDraft, saveDraftInput } from "@/lib/memory/desk";
import { readJson, projectRoute, searchParams } from "../../../_lib/respond";

export const dynamic = "force-dynamic";
const params = z.object({ id: z.string().min(1).max(64).describe("project id") });

/** A bounded task packet (`?kind=brief&task=`) or session primer (`?kind=primer`) drafted from .coord/, with its checks. */
export const GET = projectRoute<{ id: string }>("viewer", async (req, p) => {
  const { id } = params.parse(p);
  return NextResponse.json(await coordDraft(id, draftQuery.parse(searchParams(req))));
});

/** Writes the text to .coord/context_NNN.md or .coord/session_primer.md; 422 while a check fails. */
export const POST = projectRoute<{ id: string }>("editor", async (req, p) => {
  const { id } = params.parse(p);
  return NextResponse.json(await saveCoordDraft(id, await readJson(req, saveDraftInput)), { status: 201 });
});
