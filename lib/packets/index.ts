/**
 * Context Packets (v2) and Agent Briefs (seed 001, context-pack): parse, render, templates
 * and the validator. Pure: no React, Next or database imports, so the editor runs the
 * same checks in the browser that the server runs before emitting. The zod schemas of these
 * shapes are in ./schemas, for API routes; they stay out of this entry so the browser
 * bundle does not carry zod.
 */
export type { FindingTier, PacketDocument, PacketField, PacketFinding, PacketKind, PacketSection, SeedRef, TaskTokensSource, ValidationResult } from "./types";
export { parsePacket } from "./parse";
export { renderPacket } from "./render";
export { editFormField, editFormSection, formModelFrom, reconcileFormModel, type PacketFormModel } from "./form-model";
export { TITLE_MAX_CHARS, titleFollowsText, titleFromText } from "./title";
export { BRIEF_TEMPLATE, emptyDocument, PACKET_TEMPLATE } from "./templates";
export { validatePacket, type ValidateOptions } from "./validate";
export { RULE_IDS, seedRefFor, seedRefText } from "./seed-refs";
export { BEHAVIOR_VERBS, SHAPE_VERBS } from "./verbs";
export { BRIEF_CATEGORIES } from "./brief-rules";
export { PACKET_MAX_CHARS, TASK_TOKENS_MAX, TOKEN_BUDGET, TOKEN_TARGET_COMPLEX, TOKEN_TARGET_SIMPLE, TYPE_SURFACE_MIN_TOKENS } from "./limits";
