import type { FastifyInstance } from 'fastify';

/** The three dependencies every readiness answer reports on. */
export type DependencyName = 'database' | 'cache' | 'bus';
export const DEPENDENCY_NAMES: readonly DependencyName[] = ['database', 'cache', 'bus'];

/**
 * How the health server reaches a dependency. Adapters (document store, cache, bus) implement it.
 * - `ping(timeoutMs)` resolves when the dependency answers and rejects otherwise; the server also bounds it
 *   by `checkTimeoutMs` itself, so a ping that ignores its budget still cannot hang a probe.
 * - `details()` adds fields to `/detailed` (database: poolSize, availableConnections, database; cache:
 *   memoryUsed, connectedClients; bus: reconnects). Bounded like `ping`; a failure only omits them.
 * - `connected()` is the cheap connection flag of the Family B `/health` answer.
 */
export interface Probe {
  ping(timeoutMs: number): Promise<unknown>;
  details?(): Record<string, unknown> | Promise<Record<string, unknown>>;
  connected?(): boolean;
}

export type Dependencies = Partial<Record<DependencyName, Probe>>;

/** `healthCheck.readiness`: whether a dependency being down makes the node not ready. Default: all on. */
export type ReadinessToggles = Partial<Record<DependencyName, boolean>>;

/** One entry of `checks` in `/ready`: `{status:'up', latency}` or `{status:'down', error}`. */
export type DependencyCheck = { status: 'up'; latency: number } | { status: 'down'; error: string };

/** The outcome of checking one dependency: its readiness entry plus the probe's details (for `/detailed`). */
export interface DependencyReport {
  check: DependencyCheck;
  details: Record<string, unknown>;
}

export type DependencyReports = Partial<Record<DependencyName, DependencyReport>>;

export type CustomCheckStatus = 'up' | 'down' | 'degraded';

/** What a custom check returns: a status plus free details (latency, lastSuccess, queueLength, lastSync…). */
export interface CustomCheckResult {
  status: CustomCheckStatus;
  [detail: string]: unknown;
}

export type CustomCheck = () => Promise<CustomCheckResult>;

/**
 * The node's overall status in `/overview` and `/detailed`:
 * - `up`: ready, every dependency up, every custom check up;
 * - `degraded`: ready, but a dependency that does not count for readiness is down, or a custom check is
 *   degraded or down;
 * - `down`: not ready (a counted dependency is down, or the main port is not serving);
 * - `stopping`: shutting down.
 */
export type NodeStatus = 'up' | 'degraded' | 'down' | 'stopping';

/** Why `/ready` answers 503. */
export type NotReadyReason = 'shutting_down' | 'not_serving' | 'dependency_down';

export interface HealthServerOptions {
  /** `nodeID` in the answers, e.g. `tavolo-7f9c`. */
  nodeId: string;
  /** `gateway`, `tavolo`, `sala`, `prenotazione`, `bookings`, `capacity`, `canali`, or `embedded`. */
  nodeType: string;
  /** Application version. */
  version: string;
  /** Version of the framework the node runs on (reported as given). */
  frameworkVersion: string;
  /** Names of the services this process hosts (read on every request). */
  services: () => readonly string[];
  /**
   * The dependencies this process really has. One that is not given is left out of `checks` (a gateway with
   * no database has no `checks.database`); embedded mode passes probes of its in-process twins.
   */
  dependencies?: Dependencies;
  /** `healthCheck.readiness` (default all on). A toggled-off dependency is still reported. */
  readiness?: ReadinessToggles;
  /** Budget of each dependency check and custom check (default 1000 ms, well under the 5 s probe timeout). */
  checkTimeoutMs?: number;
  /**
   * How long a finished round of checks is reused (default 500 ms). Concurrent requests always share one round
   * in flight (single flight); this also bounds the ping rate under a probe storm. 0 turns reuse off.
   */
  checkCacheMs?: number;
  /** CIDRs allowed to read `/detailed` besides loopback (127.0.0.0/8, ::1, ::ffff:127.0.0.0/104). */
  detailedAllowedNetworks?: readonly string[];
  /** True while the main application port is listening; `/ready` is 503 when it is false. */
  isServing?: () => boolean;
  /** `/live` is 503 `dead` when the event loop was blocked longer than this (default 2000 ms)… */
  maxEventLoopDelayMs?: number;
  /** …within the last `eventLoopWindowMs` (default 1000 ms), or is blocked that long right now. */
  eventLoopWindowMs?: number;
  /** How often the event loop is sampled (default 100 ms). */
  eventLoopSampleIntervalMs?: number;
}

export interface HealthServer {
  /** The fastify instance answering the probes (tests call its `inject`). */
  readonly http: FastifyInstance;
  /** Starts listening; port 0 picks a free port. Without `host`, every interface (the orchestrator's probes). */
  listen(port: number, host?: string): Promise<{ port: number }>;
  /**
   * Adds a custom check shown in `/detailed` under `customChecks[name]` (it does not decide readiness).
   * A check that throws is `{status:'down', error}`; one that does not answer within `checkTimeoutMs` is
   * `{status:'down', error:'timeout after N ms'}`. Returns a function that removes it.
   */
  registerCheck(name: string, check: CustomCheck): () => void;
  /** From now on `/ready` is 503 and `/health` is `error`; `/live` stays 200 (a draining node is not dead). */
  setShuttingDown(): void;
  isShuttingDown(): boolean;
  /** Stops listening, closes open connections and stops the event-loop sampler. Idempotent. */
  close(): Promise<void>;
}
