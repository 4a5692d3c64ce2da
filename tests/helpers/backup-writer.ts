/**
 * `workbench db backup|restore` without the CLI around it, for the kill -9 test
 * (tests/db/kill-backup.test.ts), which bundles this file and starts it under the kill switch
 * 50 times per writer: `backup <file>` or `restore <file>`, on the database of DATABASE_URL.
 * Prints the result as JSON.
 */
import { backupDatabase, restoreDatabase } from "../../lib/ops/backup";

const [op, file] = process.argv.slice(2);
if ((op !== "backup" && op !== "restore") || !file) throw new Error("usage: backup-writer backup|restore <file>");
const result = op === "backup" ? await backupDatabase(file) : await restoreDatabase(file);
process.stdout.write(`${JSON.stringify(result)}\n`);
