/**
 * Acceptance-criteria vocabulary. The seed's Output Format lists 20 behaviour verbs
 * (durability-rules.md has the first 16; brief-template.md and SKILL.md add the last four).
 * Only these exact forms lead a criterion: the seed lists no inflections, so "returned"
 * or "return" is rejected, with the listed form offered as the rewrite.
 */
export const BEHAVIOR_VERBS: readonly string[] = Object.freeze([
  "accepts",
  "rejects",
  "produces",
  "notifies",
  "persists",
  "retries",
  "times-out",
  "validates",
  "returns",
  "dispatches",
  "redirects",
  "throws",
  "logs",
  "increments",
  "decrements",
  "retrieves",
  "emits",
  "caches",
  "invalidates",
  "authenticates",
]);

/**
 * Shape verbs describe what exists, not what the system does; the seed rejects them
 * (Constraint 10: "is defined", "has property"). The rest are the reference's own examples:
 * brief-template.md ("exists"), durability-rules.md ("should be present", "should exist",
 * "is exported"), evals.md ("should be defined"), and "is a" / "is an", which state what a
 * thing is rather than what it does.
 */
export const SHAPE_VERBS: readonly string[] = Object.freeze(["is defined", "has property", "exists", "should be present", "should be defined", "should exist", "is exported", "is a", "is an"]);

const VERB_SET = new Set(BEHAVIOR_VERBS);

export function isBehaviorVerb(word: string): boolean {
  return VERB_SET.has(word.toLowerCase());
}

/** Base, past and -ing forms of each verb (and the spaced "times out"): suggestion sources only. */
const INFLECTIONS: Record<string, string[]> = {
  accepts: ["accept", "accepted", "accepting"],
  rejects: ["reject", "rejected", "rejecting"],
  produces: ["produce", "produced", "producing"],
  notifies: ["notify", "notified", "notifying"],
  persists: ["persist", "persisted", "persisting"],
  retries: ["retry", "retried", "retrying"],
  "times-out": ["time-out", "timed-out", "timing-out", "timeout", "timeouts"],
  validates: ["validate", "validated", "validating"],
  returns: ["return", "returned", "returning"],
  dispatches: ["dispatch", "dispatched", "dispatching"],
  redirects: ["redirect", "redirected", "redirecting"],
  throws: ["throw", "threw", "thrown", "throwing"],
  logs: ["log", "logged", "logging"],
  increments: ["increment", "incremented", "incrementing"],
  decrements: ["decrement", "decremented", "decrementing"],
  retrieves: ["retrieve", "retrieved", "retrieving"],
  emits: ["emit", "emitted", "emitting"],
  caches: ["cache", "cached", "caching"],
  invalidates: ["invalidate", "invalidated", "invalidating"],
  authenticates: ["authenticate", "authenticated", "authenticating"],
};

const WHITELISTED_FORM = new Map<string, string>();
for (const [verb, forms] of Object.entries(INFLECTIONS)) {
  WHITELISTED_FORM.set(verb.toLowerCase(), verb);
  for (const f of forms) WHITELISTED_FORM.set(f, verb);
}

/** The whitelisted verb a word is an inflection of ("Returned" → "returns"), or null. */
export function whitelistedFormOf(word: string): string | null {
  const w = word.toLowerCase();
  const hit = WHITELISTED_FORM.get(w);
  return hit && hit !== w ? hit : null;
}

const SHAPE_RE = new RegExp(`\\b(?:${SHAPE_VERBS.map((v) => v.replace(/ /g, "\\s+")).join("|")})\\b`, "gi");

/**
 * Words that open a condition or a relative clause: a shape phrase after one of them, in the
 * same clause, describes a precondition or a noun ("if the file already exists, …", "ids
 * that exist"), not what the criterion asserts.
 */
const SUBORDINATE_RE = /\b(?:if|when|whenever|unless|once|while|where|whether|that|which|who|whose|after|before|until|because|since|although|though|given)\b/i;

/**
 * The shape phrase a criterion asserts ("is defined", "exists"…), as written, with its offset
 * in the text; null when none. Only a phrase in a main clause counts: the text between the
 * start of its clause (after the last comma, semicolon or colon) and the phrase holds no
 * subordinating word.
 */
export function findShapePhrase(text: string): { index: number; phrase: string } | null {
  for (const m of text.matchAll(SHAPE_RE)) {
    const before = text.slice(0, m.index);
    const clause = before.slice(Math.max(before.lastIndexOf(","), before.lastIndexOf(";"), before.lastIndexOf(":")) + 1);
    if (!SUBORDINATE_RE.test(clause)) return { index: m.index, phrase: m[0] };
  }
  return null;
}
