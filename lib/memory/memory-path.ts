/** The memory log's place in a project; its own module so a check of the file loads no parser. */
export const MEMORY_FILE = ".coord/memory.yml";
