import { describe, expect, it } from 'vitest';
import { EventQueue } from './event-queue.js';

describe('replay event queue', () => {
  it('orders by minute, then rank, then insertion', () => {
    const q = new EventQueue<string>();
    q.push(1200, 2, 'arrival 20:00');
    q.push(1190, 3, 'walk-in 19:50');
    q.push(1200, 0, 'departure 20:00');
    q.push(1200, 2, 'second arrival 20:00');
    q.push(1200, 0, 'second departure 20:00');
    const order: string[] = [];
    for (let e = q.shift(); e; e = q.shift()) order.push(e.event);
    expect(order).toEqual([
      'walk-in 19:50',
      'departure 20:00',
      'second departure 20:00',
      'arrival 20:00',
      'second arrival 20:00',
    ]);
    expect(q.size).toBe(0);
  });
});
