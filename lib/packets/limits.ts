/** The seed's numbers, in one place. */

/** Constraint 4: a packet MUST NOT exceed 2,000 tokens. */
export const TOKEN_BUDGET = 2000;
/** COMPRESS targets: "<500 tokens for simple tasks, <1500 tokens for complex". */
export const TOKEN_TARGET_SIMPLE = 500;
export const TOKEN_TARGET_COMPLEX = 1500;
/** Type Surface is mandatory for tasks of at least this many tokens (HARD-GATE). */
export const TYPE_SURFACE_MIN_TOKENS = 300;
/** The largest task size a caller may give: far past any task worth a packet, small enough to be a typo's ceiling. */
export const TASK_TOKENS_MAX = 10_000_000;
/** Durability exception: a single-cycle task touches fewer files than this. */
export const SINGLE_CYCLE_MAX_FILES = 3;
/**
 * "MUST NOT include full file contents": a signature or short excerpt fits in 20 lines;
 * a longer fenced block is most likely a pasted file.
 */
export const CODE_BLOCK_MAX_LINES = 20;
/** Larger than any packet worth handing off; what the CLI refuses to read (the service caps input alike). */
export const PACKET_MAX_CHARS = 200_000;
