/**
 * Whether a process with this id runs on this host: what decides if a lock, a temp file or a
 * clone folder a process left behind is abandoned. One of another user counts as running (it
 * cannot be told apart from one that is ours), and so does this process.
 */
export function processAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: the process exists but belongs to someone else.
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}
