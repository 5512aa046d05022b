import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { BoundedStats } from '@coperto/async';
import { boundedStateFamilies } from './bounded-state.js';
import { LabelGuard, methodLabel } from './label-guard.js';

export interface MetricsOptions {
  /** Added to every series as the `service` label (e.g. `gateway`, `tavolo`). */
  service: string;
  /** More labels on every series (e.g. `{ node: 'tavolo-7f9c' }`). */
  defaultLabels?: Record<string, string>;
  /** Node.js process metrics (CPU, memory, event-loop lag, GC, handles). Default true. */
  defaultMetrics?: boolean;
  /** Buckets of `http_request_duration_seconds`. */
  durationBuckets?: number[];
  /** Distinct values kept per free-text label (route, operation) before new ones become `__other__`. Default 200. */
  maxLabelValues?: number;
}

/** One finished HTTP request. `route` is the route pattern (`/api/tavoli/:id/status`), never the raw path. */
export interface ObservedRequest {
  method: string;
  route: string;
  status: number;
  durationMs: number;
}

export type RequestLabels = 'method' | 'route' | 'status';
export type OperationLabels = 'operation' | 'outcome';

export interface Metrics {
  /** The registry of this service (not prom-client's global one: embedded mode runs six in one process). */
  readonly registry: Registry;
  /** `http_requests_total{method, route, status}` */
  readonly httpRequests: Counter<RequestLabels>;
  /** `http_request_duration_seconds{method, route, status}` */
  readonly httpDuration: Histogram<RequestLabels>;
  /** `graphql_operations_total{operation, outcome}` */
  readonly graphqlOperations: Counter<OperationLabels>;
  /** Counts a finished request and records its duration. */
  observeRequest(request: ObservedRequest): void;
  /** Starts timing a request; call the returned function with the final status code. */
  startRequest(method: string, route: string): (status: number) => void;
  /** `graphql_operation_duration_seconds{operation}` */
  readonly graphqlDuration: Histogram<'operation'>;
  /** `rate_limited_total{scope}`: requests refused by the rate limiter (increment with `observeRateLimited`). */
  readonly rateLimited: Counter<'scope'>;
  /**
   * Counts a GraphQL operation (and records its duration when given). A missing name is `anonymous`, a name
   * that is not a GraphQL name is `invalid`; `outcome` is e.g. `success` or `error`.
   */
  observeGraphqlOperation(operation: string | null | undefined, outcome: string, durationMs?: number): void;
  /** Counts one request refused by the rate limiter; `scope` is what was over its rate (e.g. `token`, `tenant`). */
  observeRateLimited(scope: string): void;
  /** A gauge read at each scrape (e.g. the outbox backlog, open sockets). */
  gauge(name: string, help: string, read: () => number | Promise<number>): void;
  /** A counter whose running total is read at each scrape (e.g. cache hits kept by the cache itself). */
  totalCounter(name: string, help: string, read: () => number): void;
  /**
   * A bounded in-process structure (a per-tenant map, cache or log), read at each scrape into
   * `bounded_state_entries`, `_capacity`, `_evictions_total`, `_hits_total`, `_misses_total` labelled
   * `structure` (docs/scaling.md lists them). A name registered twice throws.
   */
  bounded(structure: string, read: () => BoundedStats): void;
  /** The Prometheus text exposition of the registry. */
  scrape(): Promise<{ contentType: string; body: string }>;
}

const DEFAULT_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Creates the metrics of one service, in a registry of its own, with the `service` label on every series. */
export function createMetrics(options: MetricsOptions): Metrics {
  if (typeof options.service !== 'string' || options.service.length === 0) {
    throw new TypeError('metrics: service must be a non-empty string');
  }
  const registry = new Registry();
  registry.setDefaultLabels({ ...options.defaultLabels, service: options.service });
  if (options.defaultMetrics ?? true) collectDefaultMetrics({ register: registry });

  const httpRequests = new Counter<RequestLabels>({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status code.',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const httpDuration = new Histogram<RequestLabels>({
    name: 'http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method, route pattern and status code.',
    labelNames: ['method', 'route', 'status'],
    buckets: options.durationBuckets ?? DEFAULT_BUCKETS,
    registers: [registry],
  });
  const graphqlOperations = new Counter<OperationLabels>({
    name: 'graphql_operations_total',
    help: 'GraphQL operations executed, by operation name and outcome.',
    labelNames: ['operation', 'outcome'],
    registers: [registry],
  });

  const graphqlDuration = new Histogram<'operation'>({
    name: 'graphql_operation_duration_seconds',
    help: 'Time to answer a GraphQL operation (also the REST routes), by operation name.',
    labelNames: ['operation'],
    buckets: options.durationBuckets ?? DEFAULT_BUCKETS,
    registers: [registry],
  });
  const rateLimited = new Counter<'scope'>({
    name: 'rate_limited_total',
    help: 'Requests refused by the rate limiter, by what was over its rate.',
    labelNames: ['scope'],
    registers: [registry],
  });

  const bounded = boundedStateFamilies(registry);
  const maxValues = options.maxLabelValues ?? 200;
  const routes = new LabelGuard(maxValues);
  const operations = new LabelGuard(maxValues);

  const observeRequest = ({ method, route, status, durationMs }: ObservedRequest) => {
    const labels = {
      method: methodLabel(method),
      route: routes.value(route || 'unmatched'),
      status: String(Math.trunc(status)),
    };
    httpRequests.inc(labels);
    if (Number.isFinite(durationMs) && durationMs >= 0) httpDuration.observe(labels, durationMs / 1000);
  };

  return {
    registry,
    httpRequests,
    httpDuration,
    graphqlOperations,
    observeRequest,
    startRequest(method, route) {
      const started = performance.now();
      return (status) => observeRequest({ method, route, status, durationMs: performance.now() - started });
    },
    graphqlDuration,
    rateLimited,
    observeGraphqlOperation(operation, outcome, durationMs) {
      const name = operationLabel(operation, operations);
      graphqlOperations.inc({ operation: name, outcome: outcome || 'unknown' });
      if (durationMs !== undefined && Number.isFinite(durationMs) && durationMs >= 0) {
        graphqlDuration.observe({ operation: name }, durationMs / 1000);
      }
    },
    observeRateLimited(scope) {
      rateLimited.inc({ scope: scope || 'unknown' });
    },
    gauge(name, help, read) {
      new Gauge({
        name,
        help,
        registers: [registry],
        async collect() {
          this.set(await read());
        },
      });
    },
    totalCounter(name, help, read) {
      new Counter({
        name,
        help,
        registers: [registry],
        collect() {
          this.reset();
          this.inc(read());
        },
      });
    },
    bounded: bounded.register,
    async scrape() {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}

const GRAPHQL_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,99}$/;

/** Bounded operation label: `anonymous`, `invalid`, a known name, or `__other__` once the budget is spent. */
function operationLabel(operation: string | null | undefined, guard: LabelGuard): string {
  if (!operation) return 'anonymous';
  if (!GRAPHQL_NAME.test(operation)) return 'invalid';
  return guard.value(operation);
}
