import { NextResponse } from "next/server";
import { z } from "zod";
import { VIEW_SURFACES } from "@/lib/views/schemas";
import { savedViews, saveView } from "@/lib/views/service";
import { readJson, projectRoute, searchParams } from "../../../_lib/respond";
import { savedViewInput } from "@/lib/views/schemas";

export const dynamic = "force-dynamic";
const params = z.object({ id: z.string().min(1).max(64).describe("project id") });
const listQuery = z.object({ surface: z.enum(VIEW_SURFACES).optional().describe("only views of this surface") });

/** The project's saved views, optionally of one surface. */
export const GET = projectRoute<{ id: string }>("viewer", async (req, p) => {
  const { id } = params.parse(p);
  return NextResponse.json({ views: await savedViews(id, listQuery.parse(searchParams(req)).surface) });
});

/** Saves (or renames over) a view: `{surface, name, path}`. */
export const POST = projectRoute<{ id: string }>("editor", async (req, p) => {
  const { id } = params.parse(p);
  return NextResponse.json({ view: await saveView(id, await readJson(req, savedViewInput)) }, { status: 201 });
});
