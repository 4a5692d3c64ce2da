/**
 * One "instance" asked to index a project, for tests/db/multi-instance.pg.test.ts: connects, prints
 * "ready", starts the job when "go" arrives on stdin (so two instances ask at the same moment),
 * prints the job it got and, once that job has finished anywhere in the cluster, its final status.
 * Usage: node --import tsx tests/helpers/index-job-child.ts <projectId>
 */
import { getDb } from "../../lib/db/client";
import { getJob } from "../../lib/db/repositories/jobs";
import { startIndexJob } from "../../lib/indexer/jobs";

const projectId = process.argv[2]!;
await getDb();
process.stdout.write("ready\n");
await new Promise<void>((resolve) => process.stdin.once("data", () => resolve()));
const job = await startIndexJob(projectId);
process.stdout.write(`job ${job.id}\n`);
let status = job.status;
while (status === "queued" || status === "running") {
  await new Promise((r) => setTimeout(r, 50));
  status = (await getJob(job.id)).status;
}
process.stdout.write(`done ${status}\n`);
// The job's follow-up work (search sync) may still run; the test only needs the job.
process.exit(0);
