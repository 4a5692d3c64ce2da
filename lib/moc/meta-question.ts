/**
 * The third rule of the seed's step 1, quoted: "A pure meta-question about the agent itself
 * (e.g. "what model", "which claude")". No public context-loader implements the gate (FORMATS.md
 * §5), so the seed is the only spec; the seed also says "Do not expand the triviality rules".
 *
 * Hence two conditions, both required:
 *  - pure: every word of the prompt comes from a small closed vocabulary (question words,
 *    politeness, "you", the agent's attributes, model names). One word about the project
 *    ("billing", "service", "config.yaml", "fix") and the prompt is a real prompt. So a prompt
 *    that asks the meta-question and also asks for work is walked.
 *  - about the agent: the subject is the agent ("you/your", "this assistant", "is this",
 *    "am I talking to") and the prompt asks its model, version, name, maker or knowledge
 *    cutoff, or what/who it is; or the prompt is nothing but the bare question of the seed's
 *    examples ("what model", "which claude").
 */

/** Model families and their makers: naming one is asking which model the agent is. */
const FAMILIES = [
  "claude",
  "anthropic",
  "gpt",
  "chatgpt",
  "openai",
  "gemini",
  "bard",
  "google",
  "llama",
  "mistral",
  "mixtral",
  "copilot",
  "codex",
  "grok",
  "deepseek",
  "qwen",
  "sonnet",
  "opus",
  "haiku",
  "microsoft",
  "deepmind",
];

/** What a meta-question asks about the agent ("trainingdata", "contextwindow" are joined below). */
const ATTRIBUTES = new Set([
  ...FAMILIES,
  "model",
  "models",
  "llm",
  "llms",
  "ai",
  "version",
  "versions",
  "name",
  "named",
  "called",
  "provider",
  "vendor",
  "company",
  "creator",
  "maker",
  "developer",
  "developers",
  "lab",
  "cutoff",
  "trainingdata",
  "contextwindow",
  "family",
]);

/** The bare form of the seed's examples: only these words, with a model word among them. */
const BARE_WORDS = new Set(["what", "which", "is", "it", "the", "a", "an", "exactly", "really", "version", "of", "model", "llm", "ai", ...FAMILIES]);
const BARE_MODEL = new Set(["model", "llm", "ai", ...FAMILIES]);

const VOCABULARY = new Set([
  ...ATTRIBUTES,
  // questions and auxiliaries
  "what",
  "which",
  "who",
  "whom",
  "whose",
  "when",
  "how",
  "is",
  "are",
  "am",
  "was",
  "were",
  "be",
  "been",
  "do",
  "does",
  "did",
  // not "would", "will", "should": "what model would you use" asks for advice, not about the agent
  "have",
  "has",
  "had",
  "can",
  "could",
  "may",
  "might",
  "not",
  // the people in the conversation
  "i",
  "me",
  "my",
  "you",
  "your",
  "yours",
  "yourself",
  "u",
  "ur",
  "it",
  "its",
  "this",
  "that",
  // asking politely
  "please",
  "tell",
  "say",
  "let",
  "know",
  "wonder",
  "wondering",
  "curious",
  "curiosity",
  "ask",
  "asking",
  "question",
  "quick",
  "just",
  "hey",
  "hi",
  "hello",
  "so",
  "ok",
  "okay",
  "btw",
  "out",
  "mind",
  "confirm",
  "share",
  "identify",
  "introduce",
  "describe",
  "about",
  "again",
  "thanks",
  // small words
  "the",
  "a",
  "an",
  "and",
  "or",
  "to",
  "with",
  "on",
  "in",
  "at",
  "from",
  "as",
  "by",
  "for",
  "of",
  "under",
  "behind",
  "underthehood",
  "exactly",
  "really",
  "actually",
  "precisely",
  "currently",
  "right",
  "now",
  "here",
  "today",
  "specifically",
  "exact",
  "specific",
  "kind",
  "type",
  "sort",
  "same",
  "still",
  "also",
  "anyway",
  // being made, run and talked to
  "running",
  "run",
  "runs",
  "use",
  "uses",
  "using",
  "used",
  "based",
  "built",
  "made",
  "makes",
  "created",
  "trained",
  "developed",
  "designed",
  "owns",
  "powers",
  "powering",
  "powered",
  "power",
  "talking",
  "speaking",
  "chatting",
  "talk",
  "speak",
  "chat",
  "answering",
  "responding",
  "replying",
  "call",
  // what the agent is
  "human",
  "person",
  "robot",
  "bot",
  "chatbot",
  "assistant",
  "agent",
  "machine",
  "program",
  "computer",
  "real",
  "actual",
  "artificial",
  "intelligence",
  "large",
  "knowledge",
  "training",
  "latest",
  "newest",
  "current",
  "recent",
  "old",
  "date",
  "big",
  "long",
  "many",
  "much",
  "uptodate",
]);

/** Multi-word attributes become one token, so their parts ("data", "window") need not be in the vocabulary. */
const PHRASES: [RegExp, string][] = [
  [/\b(?:knowledge|training(?: data)?)[- ]?cut[- ]?off(?: date)?\b/g, " cutoff "],
  [/\bcut[- ]?off(?: date)?\b/g, " cutoff "],
  [/\btraining data\b/g, " trainingdata "],
  [/\bcontext (?:window|length|size|limit)\b/g, " contextwindow "],
  [/\b(?:large )?language models?\b/g, " llm "],
  [/\bclaude code\b/g, " claude "],
  [/\bunder the hood\b/g, " underthehood "],
  [/\bby the way\b/g, " btw "],
  [/\bup[- ]to[- ]date\b/g, " uptodate "],
  [/\bwhat should i call you\b/g, " what is your name "],
];

/** "GPT-4" → gpt 4, "4o", "3.5" → 3 5, "o1": a version number is never project content here. */
const VERSION_TOKEN = /^(?:\d{1,3}[a-z]?|o\d)$/;

const SECOND_PERSON = new Set(["you", "your", "yours", "yourself", "u", "ur"]);

/** The agent named without "you": "is this", "this assistant", "am I talking to", "is answering me". */
const AGENT_OTHERWISE = [/\bis this\b/, /\bthis (?:assistant|agent|bot|chatbot|ai|llm|model|chat|conversation)\b/, /\b(?:am i|i am) (?:talking|speaking|chatting)\b/, /\bis (?:answering|responding|replying)\b/];

/** What or who the agent is, asked without one of the attributes. */
const IDENTITY = [
  /\b(?:who|what) are (?:you|u)\b/,
  /\bwho is this\b/,
  /\bwho (?:made|built|created|trained|developed|designed|owns|makes|runs|powers|is behind)\b/,
  /\b(?:are|is) (?:you|u|this) (?:an? )?(?:real |actual )?(?:human|person|robot|bot|chatbot|machine|program|computer|assistant|agent)\b/,
  /\b(?:talking|speaking|chatting) (?:to|with) (?:an? )?(?:real |actual )?(?:human|person|robot|bot|chatbot|machine|program|computer|assistant|agent)\b/,
  /\b(?:about|introduce|identify|describe) yourself\b/,
];

/** Lowercased words with contractions opened ("what's" → what is, "you're" → you are). */
export function metaWords(text: string): string[] {
  let t = ` ${text.toLowerCase().replace(/[\u2018\u2019\u02bc`]/g, "'")} `;
  t = t.replace(/\b(what|who|it|that|how|where)'s\b/g, "$1 is").replace(/\bwhats\b/g, "what is");
  t = t
    .replace(/\b(you|we|they)'re\b/g, "$1 are")
    .replace(/\byoure\b/g, "you are")
    .replace(/\bi'm\b/g, "i am")
    .replace(/\bim\b/g, "i am");
  t = t
    .replace(/\bcan't\b/g, "can not")
    .replace(/\bwon't\b/g, "will not")
    .replace(/\b(\w+)n't\b/g, "$1 not");
  // A possessive ("claude's") is its noun; "i'd", "you'll" keep an unknown word and stay real prompts.
  t = t.replace(/\b(\w+)'s\b/g, "$1");
  for (const [re, token] of PHRASES) t = t.replace(re, token);
  return t
    .split(/[^\p{L}\p{N}']+/u)
    .map((w) => w.replace(/^'+|'+$/g, ""))
    .filter(Boolean);
}

export function isMetaQuestion(text: string): boolean {
  const words = metaWords(text);
  if (words.length === 0) return false;
  if (!words.every((w) => VOCABULARY.has(w) || VERSION_TOKEN.test(w))) return false;
  // "what model", "which claude", "what version of claude": nothing in it but the question.
  const bare = words.every((w) => BARE_WORDS.has(w) || VERSION_TOKEN.test(w));
  if (bare && (words[0] === "what" || words[0] === "which") && words.some((w) => BARE_MODEL.has(w))) return true;
  const joined = words.join(" ");
  const aboutAgent = words.some((w) => SECOND_PERSON.has(w)) || AGENT_OTHERWISE.some((re) => re.test(joined));
  if (!aboutAgent) return false;
  return words.some((w) => ATTRIBUTES.has(w)) || IDENTITY.some((re) => re.test(joined));
}
