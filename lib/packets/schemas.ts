import { z } from "zod";
import { PACKET_MAX_CHARS, TASK_TOKENS_MAX } from "./limits";
import type { PacketDocument, PacketFinding, SeedRef, ValidationResult } from "./types";

/** Wire shapes of the packet model, for API input and output; they match ./types exactly (checked below). */

export const packetKindSchema = z.enum(["packet", "brief"]).describe("Context Packet (v2) for immediate dispatch, or Agent Brief for async handoff");

export const packetFieldSchema = z
  .object({
    key: z.string().describe('stable slug of the label ("task", "summary"…), unique in the document'),
    label: z.string().describe("the label as written, without bold markers and colon"),
    value: z.string().describe("the value, trimmed; continuation lines joined by newlines"),
  })
  .describe("a **Label**: value header line");

export const packetSectionSchema = z
  .object({
    key: z.string().describe('canonical key of a known section ("out-of-scope"), else a slug; unique in the document'),
    title: z.string().describe('heading or label as written; "" for text outside any section'),
    body: z.string().describe("the section's text, without leading and trailing blank lines"),
  })
  .describe("a ### section of a packet or a **Label:** block of a brief");

export const packetDocumentSchema = z
  .object({
    kind: packetKindSchema,
    preamble: z.string().describe("text before the ## Context Packet / ## Agent Brief heading"),
    fields: z.array(packetFieldSchema).describe("header lines, in document order"),
    sections: z.array(packetSectionSchema).describe("sections in document order, unknown ones included"),
    trailing: z.string().describe("text after the packet, from the first heading that is not one of its sections"),
  })
  .describe("a parsed packet or brief");

export const findingTierSchema = z.enum(["BLOCK", "WARN"]).describe("BLOCK stops emission (HARD-GATE); WARN is advice");

export const seedRefSchema = z
  .object({
    seed: z.literal("001").describe("the seed document: 001 is context-pack"),
    line: z.number().int().min(1).describe("1-based line in the seed"),
    part: z.string().describe('the part of the seed ("HARD-GATE", "Constraint 10", "Self-Validation"…)'),
    quote: z.string().describe("the seed's own words at that line"),
  })
  .describe("the seed line a finding's rule and tier come from");

export const packetFindingSchema = z
  .object({
    rule: z.string().describe('stable rule id, e.g. "file-line-ref"'),
    tier: findingTierSchema,
    message: z.string().describe("for users: what is wrong and what to do"),
    text: z.string().describe("the offending text exactly as in the markdown"),
    offset: z.number().int().min(0).describe("UTF-16 offset of the text in the markdown"),
    length: z.number().int().min(0).describe("UTF-16 length of the text"),
    line: z.number().int().min(1).describe("1-based line of the offset"),
    column: z.number().int().min(1).describe("1-based column of the offset, in UTF-16 units"),
    section: z.string().nullable().describe("title of the section the text is in; null outside sections"),
    suggestion: z.string().optional().describe('mechanical replacement for the text ("" deletes it); absent when none exists'),
    seedRef: seedRefSchema,
  })
  .describe("one check that failed, located in the markdown");

export const validationResultSchema = z
  .object({
    kind: packetKindSchema,
    packet: z.string().describe("the markdown validated"),
    token_estimate: z.number().int().min(0).describe("tokens of the markdown"),
    task_tokens: z.number().int().min(0).describe('the task size the Type Surface gate ("task >= 300 tokens") used'),
    task_tokens_source: z.enum(["caller", "packet"]).describe("caller: the task size given with the request; packet: none was given, so the packet's own token estimate"),
    tokenizer: z.string().describe("the tokenizer that counted them"),
    budget: z.number().int().describe("the token cap (2,000)"),
    completeness: z.enum(["full", "partial", "minimal"]).describe("how much of the needed context the packet captured"),
    warnings: z.array(z.string()).describe("missing context that could make the receiver fail, and the WARN findings as text"),
    findings: z.array(packetFindingSchema).describe("every finding, sorted by offset"),
    emittable: z.boolean().describe("false while any BLOCK finding stands"),
  })
  .describe("the validator's result: the seed's {packet, token_estimate, completeness, warnings} plus findings");

/** The delegated task's size, as the caller knows it; shared by the validate, save and create inputs. */
export const taskTokensInput = z
  .number()
  .int()
  .min(0)
  .max(TASK_TOKENS_MAX)
  .nullable()
  .optional()
  .describe('size of the delegated task in tokens, for the Type Surface gate ("task >= 300 tokens"); null or absent: the packet\'s own token estimate is used');

export const validatePacketInput = z.object({
  markdown: z.string().max(PACKET_MAX_CHARS, `at most ${PACKET_MAX_CHARS.toLocaleString("en")} characters`).describe("the packet's or brief's markdown"),
  taskTokens: taskTokensInput,
});

// The schemas and the interfaces must not drift apart.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const assertSame = <T extends true>(_: T) => undefined;
assertSame<Same<z.infer<typeof packetDocumentSchema>, PacketDocument>>(true);
assertSame<Same<z.infer<typeof packetFindingSchema>, PacketFinding>>(true);
assertSame<Same<z.infer<typeof seedRefSchema>, SeedRef>>(true);
assertSame<Same<z.infer<typeof validationResultSchema>, ValidationResult>>(true);
