import { BEHAVIOR_VERBS, whitelistedFormOf } from "./verbs";

/**
 * The verbs a **Task** line may lead with. The seed asks for a "one-line behavioral
 * description, verb-led" and names no list for it, so a word qualifies when it is one of
 * its behaviour verbs (listed form or base: "returns", "reject") or a common imperative
 * verb of software work. A heuristic for a WARN: an unlisted verb costs a false warning,
 * never a refused emission.
 */
const COMMON_IMPERATIVES =
  "add adjust align allow apply archive audit avoid backfill batch block bound build bump calculate cancel cap capture change check clamp clean clear close collapse collect combine compress compute configure connect consolidate convert copy correct count create cut debounce debug decouple deduplicate dedupe defer define delegate delete deliver deprecate describe detect disable display document drop enable encode encrypt enforce ensure escape estimate evict expand expire explain export expose extend extract fail fetch fill filter find fix flag flush fold forbid format forward free gate generate give group guard handle harden hash hide hydrate ignore implement import improve include index inline insert install instrument integrate introduce isolate keep kill label launch let lift limit link list load localise localize lock make map mark measure merge migrate mirror mock move name normalise normalize open optimise optimize order paginate parse patch pause pin plug poll port prefer prepare preserve prevent print prioritise prioritize process profile promote propagate protect provide prune publish pull purge push queue raise rank rate-limit read rebuild recompute record recover reduce refactor refresh register release reload remove rename render reorder repair replace report require rerun reset resize resolve respect restore restrict resume reuse revert review revoke rewrite rollback rotate route run sanitise sanitize save scale schedule score search secure send separate serialise serialize serve set share ship show shrink simplify skip slice sort speed split stabilise stabilize start stop store stream strip submit subscribe support surface suspend swap switch sync tag tear test throttle tighten time track transform translate trim truncate tune turn unblock undo unify unlock unsubscribe update upgrade upload use verify version wait warn watch wire wrap write";

const IMPERATIVES: ReadonlySet<string> = new Set([...COMMON_IMPERATIVES.split(" "), ...BEHAVIOR_VERBS, ...BEHAVIOR_VERBS.flatMap(basesOf)]);

/** The base form of a listed behaviour verb ("returns" → "return", "caches" → "cache"), as verbs.ts inflects it. */
function basesOf(verb: string): string[] {
  return [verb.slice(0, -1), verb.slice(0, -2), verb.replace(/ies$/, "y"), verb.replace(/^times-/, "time-")].filter((b) => b !== verb && whitelistedFormOf(b) === verb);
}

/** The word with a "re-"/"un-" style prefix dropped ("re-enable" → "enable"). */
const stem = (w: string) => w.replace(/^(?:re|un|pre|de|co|auto)-(?=[a-z])/, "");

/** Whether a word reads as an imperative or third-person verb ("Refresh", "Rejects", "Normalize"). */
export function isImperativeVerb(word: string): boolean {
  const w = stem(word.toLowerCase());
  if (IMPERATIVES.has(w)) return true;
  const thirdPerson = [w.replace(/ies$/, "y"), w.replace(/(ch|sh|ss|x|z)es$/, "$1"), w.replace(/s$/, "")];
  if (thirdPerson.some((b) => b !== w && IMPERATIVES.has(b))) return true;
  // Verb-forming suffixes: "Canonicalize", "Stringify", "Memoises".
  return /(?:[a-z]{3}(?:ize|ise|ify))(?:s|es)?$/.test(w);
}

/**
 * The imperative a gerund or past form comes from, when it is a known verb ("Refreshing"
 * → "refresh", "Fixed" → "fix", "Stopped" → "stop"); null otherwise.
 */
export function imperativeOf(word: string): string | null {
  const w = word.toLowerCase();
  const m = /^(.+?)(ing|ied|ed)$/.exec(w);
  if (!m) return null;
  const base = m[1]!;
  const candidates = m[2] === "ied" ? [base + "y"] : [base, base + "e", /([b-df-hj-np-tv-z])\1$/.test(base) ? base.slice(0, -1) : ""];
  return candidates.find((c) => c && IMPERATIVES.has(c)) ?? null;
}
