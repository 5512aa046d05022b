import type { MongoClient } from 'mongodb';

export interface PoolStats {
  /** Connections the pool holds now (idle and in use). */
  open(): number;
  /** Connections currently checked out by operations. */
  inUse(): number;
}

/** Counts the driver's connection pool events (CMAP) of one client: no extra round trips. */
export function trackPool(client: MongoClient): PoolStats {
  let open = 0;
  let inUse = 0;
  client.on('connectionCreated', () => open++);
  client.on('connectionClosed', () => (open = Math.max(0, open - 1)));
  client.on('connectionCheckedOut', () => inUse++);
  client.on('connectionCheckedIn', () => (inUse = Math.max(0, inUse - 1)));
  return { open: () => open, inUse: () => inUse };
}
