import type { Express } from 'express';
import { Router } from 'express';
import { requireSession } from './middleware/requireSession.js';
import { OrderController } from './controllers/OrderController.js';
import { InvoiceController } from './controllers/InvoiceController.js';
import { UserController } from './controllers/UserController.js';

export function mountRoutes(app: Express): void {
  const api = Router();
  api.use(requireSession);

  const orders = new OrderController();
  api.get('/orders', orders.list);
  api.get('/orders/:id', orders.show);
  api.post('/orders', orders.create);
  api.post('/orders/:id/cancel', orders.cancel);

  const invoices = new InvoiceController();
  api.get('/invoices', invoices.list);
  api.get('/invoices/:id/pdf', invoices.pdf);

  const users = new UserController();
  api.get('/users', users.list);
  api.get('/users/:id', users.show);

  app.use('/api', api);
}
