/**
 * The knowledge-base API (context-loader): the docs/ map of content with its health, and the pack
 * the loader builds for a prompt with the walk that produced it. Pure (zod only): the browser's
 * API client imports it.
 */
import { z } from "zod";
import { defineRoute, opaque, projectParams } from "../core/contract";
import type { LoaderResponse } from "./loader";

export const loaderInput = z.object({
  prompt: z.string().max(20_000, "The prompt is over 20,000 characters.").describe("the user's verbatim prompt; passed through unchanged"),
});

const str = z.string();
const matched = z.array(str).describe("the prompt keywords it matched");

export const loaderResponseSchema = z
  .object({
    pack: str.describe("the `<!-- context-loader:v1 -->` pack, exactly as the protocol builds it"),
    packTokens: z.number().int().describe("tokens of the pack"),
    tokenizer: str.describe("the tokenizer that counted them"),
    walk: z
      .object({
        prompt: str.describe("the prompt as given"),
        trivial: z
          .object({ reason: str.describe("why") })
          .nullable()
          .describe("set when the triviality gate stopped the walk"),
        error: z.literal("kb_not_initialized").nullable().describe("set when the project has no docs/_index.md"),
        promptSummary: str.describe("the prompt on one line"),
        tokens: z.array(str).describe("the prompt's keywords"),
        judge: str.describe("the relevance judge used"),
        sections: z
          .array(
            z.object({
              path: str.describe("the section's _index.md as shown in the pack"),
              name: str.describe("section name"),
              depth: z.number().int().describe("depth under docs/"),
              description: str.describe("its line in the parent index"),
              matched,
              label: z.enum(["relevant", "maybe", "irrelevant"]).describe("the judge's label"),
              walked: z.boolean().describe("whether its _index.md was read and its children scored"),
              why: str.describe("why it was or was not walked"),
            }),
          )
          .describe("sections visited"),
        files: z
          .array(
            z.object({
              path: str.describe("file path"),
              depth: z.number().int().describe("depth under docs/"),
              hook: str.describe("its line in the index"),
              matched,
              status: z.enum(["read", "noted"]).describe("read (excerpts taken) or noted"),
              reason: str.describe("why"),
              excerpts: z.array(z.object({ startLine: z.number().int().describe("1-based first line"), lines: z.array(str).describe("the excerpt's lines"), matched })).describe("excerpts taken"),
            }),
          )
          .describe("files considered"),
        notes: z.array(str).describe("notes the pack carries"),
        freshKb: z.boolean().describe("the knowledge base is a fresh template"),
        budgetExceeded: z.boolean().describe("the walk hit its input budget"),
        input: z.object({ filesRead: z.number().int().describe("files read"), bytesRead: z.number().int().describe("bytes read"), tokensRead: z.number().int().describe("tokens read") }).describe("what the walk read"),
        omit: z
          .object({ sections: z.number().int().optional().describe("sections"), noted: z.number().int().optional().describe("noted files"), notes: z.number().int().optional().describe("notes") })
          .optional()
          .describe("list entries left out of the pack to fit its token cap"),
      })
      .describe("the walk: each section's label and keywords, files read and noted, excerpts and notes"),
  })
  .describe("the context-loader pack and its walk");

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const assertSame = <T extends true>(_: T) => undefined;
assertSame<Same<z.infer<typeof loaderResponseSchema>, LoaderResponse>>(true);

const tag = "knowledge";

export const kbRoutes = {
  health: defineRoute({
    id: "kbHealth",
    method: "GET",
    path: "/api/v1/projects/{id}/kb",
    tag,
    summary: "The docs/ map of content and its health",
    description: "Broken links, oversize indexes, placeholder-only sections, files no index reaches, content deeper than the loader reaches.",
    access: { kind: "project", role: "viewer" },
    params: projectParams,
    response: {
      status: 200,
      description: "the tree and its health",
      json: z.object({
        kb: z
          .object({
            initialized: z.boolean().describe("whether docs/_index.md exists"),
            tree: opaque("the map of content as a tree: each section with its links and children").nullable(),
            sections: z.number().int().describe("sections"),
            files: z.number().int().describe("files"),
            brokenLinks: z.array(z.object({ from: str, target: str, path: str, reason: str.optional() })).describe("links that lead nowhere readable"),
            escapingLinks: z.array(z.object({ from: str, target: str })).describe("links out of docs/"),
            oversizeIndexes: z.array(z.object({ path: str, lines: z.number().int() })).describe("indexes over the line limit"),
            placeholderSections: z.array(str).describe("sections holding only a placeholder"),
            unreachableFiles: z.array(str).describe("files no _index.md links to"),
            tooDeep: z.array(str).describe("linked, but deeper than the loader reaches"),
            truncated: str.nullable().describe("what was left out when the graph was too large to walk"),
            refused: z.array(z.object({ path: str, message: str })).describe("files the file layer would not read, and why"),
          })
          .describe("the knowledge base's health"),
      }),
    },
  }),
  loader: defineRoute({
    id: "contextLoader",
    method: "POST",
    path: "/api/v1/projects/{id}/loader",
    tag,
    summary: "The context-loader pack for a prompt, with the walk that produced it",
    description: "Computes; writes nothing, so a viewer may call it.",
    access: { kind: "project", role: "viewer" },
    params: projectParams,
    body: loaderInput,
    response: { status: 200, description: "the pack", json: loaderResponseSchema },
  }),
};
