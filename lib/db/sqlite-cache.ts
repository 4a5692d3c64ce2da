/**
 * SQLite's page cache per connection, in KiB. better-sqlite3 builds SQLite with a 16 MB cache
 * (SQLITE_DEFAULT_CACHE_SIZE=-16000), and each connection fills its own: a full index's write
 * transaction and its read-back of every document each grew by 15 MB of native memory, which
 * stays with the process. The operating system caches the file as well, so a page that misses
 * here costs a read call rather than a disk access (the bench index took as long with 2 MB).
 */
const CACHE_KIB = 4000;

/** Sets a connection's page cache to the Workbench's size. */
export function limitPageCache(db: { pragma(source: string): unknown }): void {
  db.pragma(`cache_size = -${CACHE_KIB}`);
}
