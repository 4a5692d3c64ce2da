/** Whether dist/cli is newer than every source file it was built from. */
export function cliBuildIsCurrent(): boolean;
/** Compiles the CLI into dist/cli. */
export function buildCli(): Promise<void>;
