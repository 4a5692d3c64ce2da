/** The context-loader seed's hard limits and fixed notes. */
export const MAX_DEPTH = 3;
export const MAX_FILES_READ = 6;
export const MAX_PACK_TOKENS = 3000;
export const OVERSIZE_INDEX_LINES = 500;
/** The seed's input target: under 5,000 tokens read per invocation. */
export const INPUT_TOKEN_BUDGET = 5000;
/** Index reads during descent past this trigger the budget-exceeded fallback, leaving room for files. */
export const DESCENT_TOKEN_BUDGET = 3500;

export const NOTE_FRESH_KB = "KB initialized but mostly empty — minimal context available.";
export const NOTE_BUDGET_EXCEEDED = "Budget exceeded during descent; returned root-level sections only. Main agent should dispatch a follow-up with a narrower prompt if needed.";
