import { Router, type Request, type Response, type NextFunction } from 'express';
import { exportQueue } from './ExportJob.js';

/**
 * POST /api/exports/users  -> 202 { jobId }
 * GET  /api/exports/:jobId -> { state, progress, downloadKey? }
 * Admin only; at most one running user export per tenant.
 */
export const exportRoutes = Router();

exportRoutes.post('/exports/users', async (req: Request, res: Response, next: NextFunction) => {
  try {
    if (req.session!.role !== 'admin') {
      res.status(403).json({ error: 'forbidden' });
      return;
    }
    const jobId = `users-${req.session!.tenantId}`;
    const existing = await exportQueue.getJob(jobId);
    if (existing && (await existing.isActive())) {
      res.status(409).json({ error: 'export_already_running', jobId });
      return;
    }
    if (existing) await existing.remove();
    await exportQueue.add(
      'users',
      { tenantId: req.session!.tenantId, requestedBy: req.session!.userId, kind: 'users' },
      { jobId, removeOnComplete: { age: 7 * 86400 }, attempts: 3, backoff: { type: 'exponential', delay: 10_000 } },
    );
    res.status(202).json({ jobId });
  } catch (err) {
    next(err);
  }
});

exportRoutes.get('/exports/:jobId', async (req: Request, res: Response, next: NextFunction) => {
  try {
    const job = await exportQueue.getJob(req.params.jobId!);
    if (!job || job.data.tenantId !== req.session!.tenantId) {
      res.status(404).json({ error: 'export_not_found' });
      return;
    }
    res.json({
      state: await job.getState(),
      progress: job.progress,
      downloadKey: job.returnvalue?.key ?? null,
    });
  } catch (err) {
    next(err);
  }
});
