import type { Viewer } from '@coperto/auth';
import type { SocketBudget } from './socket-budget.js';

/** Context of a subscription operation: who opened the socket (verified once, at connection) and its budget. */
export interface SubscriptionContext {
  viewer: Viewer;
  budget: SocketBudget;
}
