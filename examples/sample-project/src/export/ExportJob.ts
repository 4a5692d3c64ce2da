import { Queue, Worker, type Job } from 'bullmq';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Redis } from 'ioredis';
import { pool } from '../db.js';
import { UserExporter } from './UserExporter.js';

export interface ExportJobData {
  tenantId: string;
  requestedBy: string;
  kind: 'users';
}

export interface ExportJobResult {
  key: string;
  rows: number;
  expiresAt: string;
}

const connection = new Redis(process.env.REDIS_URL ?? 'redis://localhost:6379', { maxRetriesPerRequest: null });
export const exportQueue = new Queue<ExportJobData, ExportJobResult>('exports', { connection });

const RETENTION_DAYS = 7; // bucket lifecycle rule deletes objects after 7 days
const s3 = new S3Client({});

export async function runExport(job: Job<ExportJobData, ExportJobResult>): Promise<ExportJobResult> {
  const { tenantId, kind } = job.data;
  const exporter = new UserExporter(pool);
  const chunks: string[] = [];
  let rows = -1; // header line
  for await (const line of exporter.csv(tenantId)) {
    chunks.push(line);
    rows += 1;
    if (rows % 5000 === 0) await job.updateProgress(rows);
  }
  const key = `${tenantId}/${kind}/${job.id}.csv`;
  await s3.send(
    new PutObjectCommand({
      Bucket: process.env.EXPORT_BUCKET,
      Key: key,
      Body: chunks.join(''),
      ContentType: 'text/csv; charset=utf-8',
    }),
  );
  const expiresAt = new Date(Date.now() + RETENTION_DAYS * 86400_000).toISOString();
  return { key, rows: Math.max(rows, 0), expiresAt };
}

export function startExportWorker(): Worker<ExportJobData, ExportJobResult> {
  return new Worker('exports', runExport, { connection, concurrency: 2 });
}
