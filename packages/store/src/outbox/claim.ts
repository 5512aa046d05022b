import type { PendingOutbox } from '../types.js';

/** Validates `claimPending` arguments (both adapters): a positive integer limit and a non-negative lease. */
export function assertClaim(limit: number, leaseMs: number): void {
  if (!Number.isInteger(limit) || limit < 1) throw new TypeError('limit must be a positive integer');
  if (typeof leaseMs !== 'number' || !Number.isFinite(leaseMs) || leaseMs < 0) {
    throw new TypeError('leaseMs must be a non-negative number of milliseconds');
  }
}

/**
 * Whether an acknowledgement ends the relay's claim: every message it was handed was published. A partial
 * acknowledgement keeps the lease (the relay still works on the rest); a complete one releases it at once, so
 * events written meanwhile are claimable without waiting for the lease to run out.
 */
export function releasesClaim(pending: PendingOutbox, published: ReadonlySet<string>): boolean {
  return pending.messages.every((message) => published.has(message.id));
}
