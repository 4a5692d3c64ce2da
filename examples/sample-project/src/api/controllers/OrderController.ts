import type { Request, Response, NextFunction } from 'express';
import { z } from 'zod';
import { OrderRepository } from '../../orders/OrderRepository.js';
import { pagination, parse, uuidParam } from '../validation.js';

const createOrder = z.object({
  customerId: z.string().uuid(),
  currency: z.enum(['EUR', 'USD', 'GBP']),
  lines: z
    .array(z.object({ sku: z.string().min(1), quantity: z.number().int().positive() }))
    .min(1)
    .max(100),
});

export class OrderController {
  constructor(private readonly orders = new OrderRepository()) {}

  list = async (req: Request, res: Response, next: NextFunction) => {
    try {
      const page = parse(pagination, req.query);
      const result = await this.orders.listForTenant(req.session!.tenantId, page);
      res.json(result);
    } catch (err) {
      next(err);
    }
  };

  show = async (req: Request, res: Response, next: NextFunction) => {
    try {
      const { id } = parse(uuidParam, req.params);
      const order = await this.orders.findById(req.session!.tenantId, id);
      if (!order) {
        res.status(404).json({ error: 'order_not_found' });
        return;
      }
      res.json(order);
    } catch (err) {
      next(err);
    }
  };

  create = async (req: Request, res: Response, next: NextFunction) => {
    try {
      const input = parse(createOrder, req.body);
      const order = await this.orders.create(req.session!.tenantId, input);
      res.status(201).json(order);
    } catch (err) {
      next(err);
    }
  };

  cancel = async (req: Request, res: Response, next: NextFunction) => {
    try {
      const { id } = parse(uuidParam, req.params);
      const cancelled = await this.orders.cancel(req.session!.tenantId, id, req.session!.userId);
      if (!cancelled) {
        // Already shipped or already cancelled: same answer on purpose.
        res.status(409).json({ error: 'order_not_cancellable' });
        return;
      }
      res.status(204).end();
    } catch (err) {
      next(err);
    }
  };
}
