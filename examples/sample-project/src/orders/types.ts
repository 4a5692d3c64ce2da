export type OrderStatus = 'pending' | 'paid' | 'shipped' | 'delivered' | 'cancelled';

export interface OrderLine {
  sku: string;
  quantity: number;
  unitPriceCents: number;
}

export interface Order {
  id: string;
  tenantId: string;
  customerId: string;
  status: OrderStatus;
  currency: 'EUR' | 'USD' | 'GBP';
  totalCents: number;
  lines: OrderLine[];
  createdAt: Date;
  updatedAt: Date;
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}
