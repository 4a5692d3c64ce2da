import { pool, withTransaction } from '../db.js';
import type { Order, OrderLine, Page } from './types.js';

const ORDER_COLUMNS = `id, tenant_id as "tenantId", customer_id as "customerId", status, currency,
  total_cents as "totalCents", created_at as "createdAt", updated_at as "updatedAt"`;

export class OrderRepository {
  async listForTenant(tenantId: string, page: { limit: number; cursor?: string }): Promise<Page<Order>> {
    const { rows } = await pool.query(
      `select ${ORDER_COLUMNS} from orders
        where tenant_id = $1 and ($2::timestamptz is null or created_at < $2)
        order by created_at desc limit $3`,
      [tenantId, page.cursor ?? null, page.limit + 1],
    );
    const items = rows.slice(0, page.limit) as Order[];
    const nextCursor = rows.length > page.limit ? items[items.length - 1]!.createdAt.toISOString() : null;
    return { items, nextCursor };
  }

  async findById(tenantId: string, id: string): Promise<Order | null> {
    const { rows } = await pool.query(`select ${ORDER_COLUMNS} from orders where tenant_id = $1 and id = $2`, [
      tenantId,
      id,
    ]);
    if (rows.length === 0) return null;
    const lines = await pool.query(
      'select sku, quantity, unit_price_cents as "unitPriceCents" from order_lines where order_id = $1',
      [id],
    );
    return { ...(rows[0] as Order), lines: lines.rows as OrderLine[] };
  }

  async create(
    tenantId: string,
    input: { customerId: string; currency: Order['currency']; lines: { sku: string; quantity: number }[] },
  ): Promise<Order> {
    return withTransaction(async (client) => {
      const prices = await client.query(
        'select sku, price_cents from catalog_items where tenant_id = $1 and sku = any($2)',
        [tenantId, input.lines.map((l) => l.sku)],
      );
      const priceBySku = new Map<string, number>(prices.rows.map((r) => [r.sku, r.price_cents]));
      const lines: OrderLine[] = input.lines.map((l) => {
        const unitPriceCents = priceBySku.get(l.sku);
        if (unitPriceCents === undefined) throw new Error(`unknown sku ${l.sku}`);
        return { sku: l.sku, quantity: l.quantity, unitPriceCents };
      });
      const totalCents = lines.reduce((sum, l) => sum + l.quantity * l.unitPriceCents, 0);
      const { rows } = await client.query(
        `insert into orders (tenant_id, customer_id, status, currency, total_cents)
         values ($1, $2, 'pending', $3, $4) returning ${ORDER_COLUMNS}`,
        [tenantId, input.customerId, input.currency, totalCents],
      );
      const order = rows[0] as Order;
      for (const line of lines) {
        await client.query(
          'insert into order_lines (order_id, sku, quantity, unit_price_cents) values ($1, $2, $3, $4)',
          [order.id, line.sku, line.quantity, line.unitPriceCents],
        );
      }
      return { ...order, lines };
    });
  }

  /** Returns false when the order is not in a cancellable state. */
  async cancel(tenantId: string, id: string, cancelledBy: string): Promise<boolean> {
    const { rowCount } = await pool.query(
      `update orders set status = 'cancelled', cancelled_by = $3, updated_at = now()
        where tenant_id = $1 and id = $2 and status in ('pending', 'paid')`,
      [tenantId, id, cancelledBy],
    );
    return rowCount === 1;
  }
}
