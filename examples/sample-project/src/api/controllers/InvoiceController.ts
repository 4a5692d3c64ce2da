import type { Request, Response, NextFunction } from 'express';
import { pool } from '../../db.js';
import { pagination, parse, uuidParam } from '../validation.js';

export class InvoiceController {
  list = async (req: Request, res: Response, next: NextFunction) => {
    try {
      const { limit } = parse(pagination, req.query);
      const { rows } = await pool.query(
        `select id, order_id, number, total_cents, currency, issued_at
           from invoices where tenant_id = $1 order by issued_at desc limit $2`,
        [req.session!.tenantId, limit],
      );
      res.json({ items: rows });
    } catch (err) {
      next(err);
    }
  };

  pdf = async (req: Request, res: Response, next: NextFunction) => {
    try {
      const { id } = parse(uuidParam, req.params);
      const { rows } = await pool.query(
        'select pdf_key from invoices where tenant_id = $1 and id = $2',
        [req.session!.tenantId, id],
      );
      if (rows.length === 0) {
        res.status(404).json({ error: 'invoice_not_found' });
        return;
      }
      res.redirect(302, `/files/${rows[0].pdf_key}`);
    } catch (err) {
      next(err);
    }
  };
}
