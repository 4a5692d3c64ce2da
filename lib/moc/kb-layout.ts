/**
 * Where a project's knowledge base lives, and the root index that makes it one
 * (kb_not_initialized without it). A module of its own, importing nothing: the scan that lists
 * docs/ for search runs on load-context's start, which must not load the loader's tokenizer.
 */
export const KB_DIR = "docs";
export const KB_ROOT_INDEX = "_index.md";
