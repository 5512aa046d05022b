export { createHealthServer } from './health-server.js';
export {
  DEPENDENCY_NAMES,
  type CustomCheck,
  type CustomCheckResult,
  type CustomCheckStatus,
  type Dependencies,
  type DependencyCheck,
  type DependencyName,
  type HealthServer,
  type HealthServerOptions,
  type NodeStatus,
  type NotReadyReason,
  type Probe,
  type ReadinessToggles,
} from './types.js';
export type { DetailedBody, FamilyBBody, LiveBody, OverviewBody, ReadyBody } from './bodies.js';
export { createAddressFilter, LOOPBACK_NETWORKS } from './address-filter.js';
