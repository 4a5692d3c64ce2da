import chokidar from "chokidar";

export interface WatchOptions {
  debounceMs?: number;
  /** Called once the watcher is active: a change after this is announced. */
  onReady?: () => void;
}

/**
 * Calls `onChange` (debounced) whenever a file in a run packet changes: a new state
 * line, a seat file, the registry. It gets the paths that changed since the last call, in the
 * order they were reported. Returns a function that stops watching.
 *
 * `absDir` is the packet folder's real path inside the project (ProjectFs.realDirSync). Links
 * are not followed (`followSymlinks: false`): a link to a folder outside the project must not
 * make the server watch, or stat, anything there. Only change events are used; nothing is read.
 */
export function watchPacket(absDir: string, onChange: (changed: string[]) => void, { debounceMs = 150, onReady }: WatchOptions = {}): () => Promise<void> {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let changed: string[] = [];
  const watcher = chokidar.watch(absDir, { ignoreInitial: true, depth: 3, persistent: true, followSymlinks: false });
  const fire = (p: string) => {
    if (!changed.includes(p)) changed.push(p);
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      const batch = changed;
      changed = [];
      onChange(batch);
    }, debounceMs);
  };
  watcher.on("add", fire).on("addDir", fire).on("change", fire).on("unlink", fire).on("unlinkDir", fire);
  if (onReady) watcher.once("ready", onReady);
  return async () => {
    if (timer) clearTimeout(timer);
    await watcher.close();
  };
}
