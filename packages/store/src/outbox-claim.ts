/** Validates `claimPending` arguments (both adapters): a positive integer limit and a non-negative lease. */
export function assertClaim(limit: number, leaseMs: number): void {
  if (!Number.isInteger(limit) || limit < 1) throw new TypeError('limit must be a positive integer');
  if (typeof leaseMs !== 'number' || !Number.isFinite(leaseMs) || leaseMs < 0) {
    throw new TypeError('leaseMs must be a non-negative number of milliseconds');
  }
}
