import express from 'express';
import { pool } from './db.js';
import { mountRoutes } from './api/routes.js';
import { errorHandler } from './api/middleware/errorHandler.js';

const app = express();

app.disable('x-powered-by');
app.use(express.json({ limit: '1mb' }));

app.get('/api/health', async (_req, res) => {
  await pool.query('select 1');
  res.json({ status: 'ok' });
});

mountRoutes(app);

// Must stay last: turns thrown errors into JSON responses.
app.use(errorHandler);

const port = Number(process.env.PORT ?? 4000);
const server = app.listen(port, () => {
  console.log(`acme-orders listening on :${port}`);
});

process.on('SIGTERM', () => {
  server.close(() => void pool.end());
});
