export {
  createMetrics,
  type Metrics,
  type MetricsOptions,
  type ObservedRequest,
  type OperationLabels,
  type RequestLabels,
} from './metrics.js';
export { createMetricsServer, type MetricsServer } from './metrics-server.js';
export { OVERFLOW_LABEL } from './label-guard.js';
export type { BoundedStats } from '@coperto/async';
