/**
 * Pure builders of every health answer (the interface's health contract, packages/health/README.md): state in, `{status, body}` out.
 * The HTTP layer only gathers the state and writes the result.
 */
import {
  DEPENDENCY_NAMES,
  type CustomCheckResult,
  type DependencyCheck,
  type DependencyName,
  type DependencyReports,
  type NodeStatus,
  type NotReadyReason,
  type Probe,
  type ReadinessToggles,
} from './types.js';

export interface HealthAnswer<B> {
  status: 200 | 503;
  body: B;
}

export interface NodeIdentity {
  nodeId: string;
  nodeType: string;
  version: string;
  frameworkVersion: string;
}

export interface NodeState {
  shuttingDown: boolean;
  /** The main application port is listening. */
  serving: boolean;
  readiness: Required<ReadinessToggles>;
}

/** Toggles with their defaults (all on). */
export function resolveToggles(toggles: ReadinessToggles = {}): Required<ReadinessToggles> {
  return { database: toggles.database ?? true, cache: toggles.cache ?? true, bus: toggles.bus ?? true };
}

// --- /public/health/live -------------------------------------------------------------------------------------

export interface LiveBody {
  status: 'alive' | 'dead';
  timestamp: string;
}

export function liveAnswer(alive: boolean, now: Date): HealthAnswer<LiveBody> {
  return {
    status: alive ? 200 : 503,
    body: { status: alive ? 'alive' : 'dead', timestamp: now.toISOString() },
  };
}

// --- /public/health/ready ------------------------------------------------------------------------------------

type ReadyChecks = Partial<Record<DependencyName, DependencyCheck>>;

export interface ReadyBody {
  status: 'ready' | 'not_ready';
  /** Only when not ready. */
  reason?: NotReadyReason;
  checks: ReadyChecks;
}

/** The readiness entries, in the order database, cache, bus; unconfigured dependencies are absent. */
function readyChecks(reports: DependencyReports): ReadyChecks {
  const checks: ReadyChecks = {};
  for (const name of DEPENDENCY_NAMES) {
    const report = reports[name];
    if (report) checks[name] = report.check;
  }
  return checks;
}

/** Not ready when shutting down, when the main port is not serving, or when a counted dependency is down. */
function notReadyReason(state: NodeState, reports: DependencyReports): NotReadyReason | undefined {
  if (state.shuttingDown) return 'shutting_down';
  if (!state.serving) return 'not_serving';
  const counted = DEPENDENCY_NAMES.filter((name) => state.readiness[name]);
  if (counted.some((name) => reports[name]?.check.status === 'down')) return 'dependency_down';
  return undefined;
}

export function readyAnswer(state: NodeState, reports: DependencyReports): HealthAnswer<ReadyBody> {
  const reason = notReadyReason(state, reports);
  const checks = readyChecks(reports);
  return reason
    ? { status: 503, body: { status: 'not_ready', reason, checks } }
    : { status: 200, body: { status: 'ready', checks } };
}

// --- node status, /public/health/overview ---------------------------------------------------------------------

export function nodeStatus(
  state: NodeState,
  reports: DependencyReports,
  custom: Record<string, CustomCheckResult>,
): NodeStatus {
  if (state.shuttingDown) return 'stopping';
  if (notReadyReason(state, reports)) return 'down';
  const anyDependencyDown = DEPENDENCY_NAMES.some((name) => reports[name]?.check.status === 'down');
  const anyCustomNotUp = Object.values(custom).some((result) => result.status !== 'up');
  return anyDependencyDown || anyCustomNotUp ? 'degraded' : 'up';
}

export interface OverviewBody {
  nodeID: string;
  nodeType: string;
  status: NodeStatus;
  uptime: number;
  services: string[];
  version: string;
  frameworkVersion: string;
}

export function overviewAnswer(
  identity: NodeIdentity,
  status: NodeStatus,
  uptimeSeconds: number,
  services: readonly string[],
): HealthAnswer<OverviewBody> {
  return {
    status: 200,
    body: {
      nodeID: identity.nodeId,
      nodeType: identity.nodeType,
      status,
      uptime: Math.floor(uptimeSeconds),
      services: [...services],
      version: identity.version,
      frameworkVersion: identity.frameworkVersion,
    },
  };
}

// --- /public/health/detailed ----------------------------------------------------------------------------------

export interface ProcessFigures {
  memory: { heapUsed: number; heapTotal: number; rss: number; external: number };
  /** Microseconds of CPU time since the process started. */
  cpu: { user: number; system: number };
  /** Event-loop delay in ms. */
  eventLoop: { p50: number; p99: number; max: number; longestStall: number };
}

export interface DetailedBody {
  nodeID: string;
  nodeType: string;
  status: NodeStatus;
  uptime: number;
  version: string;
  frameworkVersion: string;
  memory: ProcessFigures['memory'];
  cpu: ProcessFigures['cpu'];
  eventLoop: ProcessFigures['eventLoop'];
  checks: Partial<Record<DependencyName, Record<string, unknown>>>;
  customChecks: Record<string, CustomCheckResult>;
}

/** A dependency entry of `/detailed`: the probe's details, then status and latency or error (never overridden). */
function detailedCheck(report: { check: DependencyCheck; details: Record<string, unknown> }) {
  const { status: _status, latency: _latency, error: _error, ...details } = report.details;
  return { ...details, ...report.check };
}

export function detailedAnswer(input: {
  identity: NodeIdentity;
  status: NodeStatus;
  uptimeSeconds: number;
  figures: ProcessFigures;
  reports: DependencyReports;
  custom: Record<string, CustomCheckResult>;
}): HealthAnswer<DetailedBody> {
  const checks: DetailedBody['checks'] = {};
  for (const name of DEPENDENCY_NAMES) {
    const report = input.reports[name];
    if (report) checks[name] = detailedCheck(report);
  }
  const int = (n: number) => Math.max(0, Math.round(n));
  const { memory, cpu, eventLoop } = input.figures;
  return {
    status: 200,
    body: {
      nodeID: input.identity.nodeId,
      nodeType: input.identity.nodeType,
      status: input.status,
      uptime: Math.floor(input.uptimeSeconds),
      version: input.identity.version,
      frameworkVersion: input.identity.frameworkVersion,
      memory: {
        heapUsed: int(memory.heapUsed),
        heapTotal: int(memory.heapTotal),
        rss: int(memory.rss),
        external: int(memory.external),
      },
      cpu: { user: int(cpu.user), system: int(cpu.system) },
      eventLoop,
      checks,
      customChecks: input.custom,
    },
  };
}

// --- Family B: /health ----------------------------------------------------------------------------------------

export interface FamilyBBody {
  status: 'ok' | 'error';
  transporter: { connected: boolean };
  cacher: { connected: boolean };
  broker: { started: boolean };
  services: number;
  uptime: number;
}

/** A probe's connection flag: `connected()` when it has one (a throw is false), else true (it cannot tell). */
function probeConnected(probe: Probe | undefined): boolean {
  if (!probe) return false;
  if (!probe.connected) return true;
  try {
    return probe.connected() === true;
  } catch {
    return false;
  }
}

/**
 * `ok` unless shutting down, the main port is not serving, or a configured bus/cache that counts for readiness
 * is disconnected. An unconfigured bus or cache reports `connected: false` without failing the answer.
 */
export function familyBAnswer(input: {
  state: NodeState;
  bus: Probe | undefined;
  cache: Probe | undefined;
  serviceCount: number;
  uptimeSeconds: number;
}): HealthAnswer<FamilyBBody> {
  const { state } = input;
  const transporter = probeConnected(input.bus);
  const cacher = probeConnected(input.cache);
  const started = state.serving && !state.shuttingDown;
  const failing =
    !started ||
    (input.bus && state.readiness.bus && !transporter) ||
    (input.cache && state.readiness.cache && !cacher);
  return {
    status: failing ? 503 : 200,
    body: {
      status: failing ? 'error' : 'ok',
      transporter: { connected: transporter },
      cacher: { connected: cacher },
      broker: { started },
      services: input.serviceCount,
      uptime: Math.floor(input.uptimeSeconds),
    },
  };
}
