/**
 * Context of a subscription's execution. One execution serves every socket of a subscription group
 * (subscription-groups.ts), so it holds only what the group key holds: the tenant (from the verified tokens of
 * its members), never anything of one user or socket.
 */
export interface SubscriptionContext {
  tenantId: string;
  /** The group fell behind the bus (its buffer overflowed): its members are disconnected with 4429. */
  fellBehind: () => void;
}
