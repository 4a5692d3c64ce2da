import type { Request, Response, NextFunction } from 'express';
import { pool } from '../../db.js';
import { pagination, parse, uuidParam } from '../validation.js';

const USER_COLUMNS = 'id, email, display_name, role, created_at, last_login_at';

export class UserController {
  list = async (req: Request, res: Response, next: NextFunction) => {
    try {
      if (req.session!.role !== 'admin') {
        res.status(403).json({ error: 'forbidden' });
        return;
      }
      const { limit } = parse(pagination, req.query);
      const { rows } = await pool.query(
        `select ${USER_COLUMNS} from users where tenant_id = $1 order by created_at limit $2`,
        [req.session!.tenantId, limit],
      );
      res.json({ items: rows });
    } catch (err) {
      next(err);
    }
  };

  show = async (req: Request, res: Response, next: NextFunction) => {
    try {
      const { id } = parse(uuidParam, req.params);
      const { rows } = await pool.query(
        `select ${USER_COLUMNS} from users where tenant_id = $1 and id = $2`,
        [req.session!.tenantId, id],
      );
      if (rows.length === 0) {
        res.status(404).json({ error: 'user_not_found' });
        return;
      }
      res.json(rows[0]);
    } catch (err) {
      next(err);
    }
  };
}
