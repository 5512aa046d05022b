import type { EventBus, ReplayLog } from '@coperto/bus';
import type { Cache } from '@coperto/cache';
import type { BoundedStats, Metrics } from '@coperto/metrics';
import type { GatewayRateLimit } from '../http/rate-limit.js';
import type { BudgetName } from '../http/rate-budgets.js';
import type { SubscriptionServer } from '../subscriptions/ws-server.js';

/** What the gateway process keeps per tenant in memory, each with its bound (docs/scaling.md). */
export interface GatewayBoundedState {
  /** The HTTP side's memories (GatewayServer.bounded). */
  http: () => Record<string, BoundedStats>;
  cache: Cache | undefined;
  rateLimit: GatewayRateLimit | undefined;
  subscriptions: SubscriptionServer;
  /** The source bus: embedded mode's keeps a replay log. */
  bus: EventBus & { readonly log?: ReplayLog };
}

/**
 * Reports the gateway's own bounded structures as `bounded_state_*{structure}`: its HTTP side's (encoded answers,
 * document analyses, Google's tokens), the cache's (per-tenant views; the memory cache's entries, with its hits and
 * misses), the rate limiter's budgets in memory (tenants, channel keys, channel client addresses), the subscription
 * server's socket tenants and groups, and the in-process bus's replay log (embedded). Only those this process has.
 */
export function reportGatewayBounds(metrics: Metrics, state: GatewayBoundedState): void {
  const { http, cache, rateLimit, subscriptions, bus } = state;
  for (const name of Object.keys(http())) {
    metrics.bounded(name, () => http()[name] ?? { entries: 0, capacity: 0, evictions: 0 });
  }
  if (cache) {
    for (const name of Object.keys(cache.bounded())) {
      metrics.bounded(`cache_${name}`, () => {
        const figures = cache.bounded()[name]!;
        if (name !== 'entries') return figures;
        const { hits, misses } = cache.stats();
        return { ...figures, hits, misses };
      });
    }
  }
  if (rateLimit) {
    // The budgets held in this process's memory (a budget in Redis is not reported: its keys expire there).
    for (const [budget, held] of Object.entries(rateLimit.bounded())) {
      metrics.bounded(`rate_limit_${budget}`, () => rateLimit.bounded()[budget as BudgetName] ?? held);
    }
  }
  for (const name of [
    'subscription_socket_tenants',
    'subscription_groups',
    'subscription_recent_ids',
  ] as const) {
    metrics.bounded(name, () => subscriptions.bounded()[name]);
  }
  const log = bus.log;
  if (log) {
    metrics.bounded('replay_log', () => ({
      entries: log.size,
      capacity: log.capacity,
      evictions: log.evicted,
    }));
  }
}
